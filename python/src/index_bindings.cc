// The splitting, indexing and padding functions of the Python API (tfscope/ops_index.h).
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/ops_index.h"

namespace tfpy {

namespace {
tfs::DType dtype_or(nb::handle h, tfs::DType dflt) {
  tfs::DType d = dtype_arg(h);
  return d == tfs::DType::kInvalid ? dflt : d;
}
}  // namespace

void bind_index(nb::module_& m) {
  def_any(m, "split", [](nb::handle value, nb::handle sizes, nb::handle axis, nb::handle num) {
    tfs::EagerErrorName n(" name: split");
    return tfs::split(operand(value), operand(sizes), operand(axis),
                      num.is_none() ? -1 : nb::cast<int64_t>(num));
  });
  def_any(m, "one_hot",
          [](nb::handle indices, nb::handle depth, nb::handle on, nb::handle off, int64_t axis,
             nb::handle dtype) {
            tfs::EagerErrorName n(eager_error_name(indices, depth));
            return tfs::one_hot(operand(indices), operand(depth), operand(on), operand(off), axis,
                                dtype_arg(dtype));
          });
  def_any(m, "eye",
          [](int64_t rows, nb::handle cols, std::vector<int64_t> batch, nb::handle dtype) {
            return tfs::eye(rows, cols.is_none() ? -1 : nb::cast<int64_t>(cols), batch,
                            dtype_or(dtype, tfs::DType::kFloat32));
          });
  def_any(m, "where_true", [](nb::handle c) { return tfs::where(operand(c)); });
  def_any(m, "gather_nd", [](nb::handle p, nb::handle i) {
    tfs::EagerErrorName n(eager_error_name(p, i));
    return tfs::gather_nd(operand(p), operand(i));
  });
  def_any(m, "scatter_nd", [](nb::handle i, nb::handle u, nb::handle s) {
    tfs::EagerErrorName n(eager_error_name(i, u, s));
    return tfs::scatter_nd(operand(i), operand(u), operand(s));
  });
  def_any(m, "tensor_scatter_nd_update", [](nb::handle t, nb::handle i, nb::handle u) {
    tfs::EagerErrorName n(eager_error_name(t, i, u));
    return tfs::tensor_scatter_nd_update(operand(t), operand(i), operand(u));
  });
  def_any(m, "pad", [](nb::handle t, nb::handle p, const std::string& mode, nb::handle cv) {
    tfs::EagerErrorName n(eager_error_name(t, p));
    return tfs::pad(operand(t), operand(p), mode, operand(cv));
  });
  def_any(m, "reverse", [](nb::handle t, nb::handle axis) {
    tfs::EagerErrorName n(eager_error_name(t, axis));
    return tfs::reverse(operand(t), operand(axis));
  });
  def_any(m, "sequence_mask", [](nb::handle lengths, nb::handle maxlen, nb::handle dtype) {
    return tfs::sequence_mask(operand(lengths), operand(maxlen), dtype_arg(dtype));
  });
  def_any(m, "matvec", [](nb::handle a, nb::handle b, bool transpose_a) {
    return tfs::matvec(operand(a), operand(b), transpose_a);
  });
}

}  // namespace tfpy
