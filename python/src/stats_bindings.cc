// The normalization and statistics functions of the Python API (tfscope/ops_stats.h).
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include "convert.h"
#include "tfscope/ops_stats.h"

namespace tfpy {

void bind_stats(nb::module_& m) {
  using tfs::Tensor;
  def_any(m, "stop_gradient", [](nb::handle x) { return tfs::stop_gradient(operand(x)); });
  def_any(m, "squared_difference", [](nb::handle x, nb::handle y) {
    tfs::EagerErrorName n(eager_error_name(x, y));
    return tfs::squared_difference(converted_operand(x), converted_operand(y));
  });
  def_any(m, "moments", [](nb::handle x, nb::handle axes, bool keepdims) {
    return tfs::moments(operand(x), operand(axes), keepdims);
  });
  def_any(m, "batch_normalization",
          [](nb::handle x, nb::handle mean, nb::handle variance, nb::handle offset,
             nb::handle scale, double epsilon) {
            return tfs::batch_normalization(operand(x), operand(mean), operand(variance),
                                            operand(offset), operand(scale), epsilon);
          });
  def_any(m, "l2_normalize", [](nb::handle x, nb::handle axis, double epsilon) {
    return tfs::l2_normalize(operand(x), operand(axis), epsilon);
  });
  def_any(m, "reduce_variance", [](nb::handle x, nb::handle axis, bool keepdims) {
    return tfs::reduce_variance(operand(x), operand(axis), keepdims);
  });
  def_any(m, "reduce_std", [](nb::handle x, nb::handle axis, bool keepdims) {
    return tfs::reduce_std(operand(x), operand(axis), keepdims);
  });
  def_any(m, "cumsum", [](nb::handle x, nb::handle axis, bool exclusive, bool reverse) {
    tfs::EagerErrorName n(eager_error_name(x, axis));
    return tfs::cumsum(operand(x), operand(axis), exclusive, reverse);
  });
  def_any(m, "top_k", [](nb::handle x, nb::handle k, bool sorted, nb::handle index_type) {
    tfs::EagerErrorName n(eager_error_name(x, k));
    tfs::DType d = dtype_arg(index_type);
    return tfs::top_k(operand(x), operand(k), sorted,
                      d == tfs::DType::kInvalid ? tfs::DType::kInt32 : d);
  });
  def_any(m, "sort", [](nb::handle x, int64_t axis, const std::string& direction, bool argsort) {
    return argsort ? tfs::argsort(operand(x), axis, direction)
                   : tfs::sort(operand(x), axis, direction);
  });
  def_any(m, "embedding_lookup", [](nb::handle params, nb::handle ids) {
    return tfs::embedding_lookup(operand(params), operand(ids));
  });
}

}  // namespace tfpy
