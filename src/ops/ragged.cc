// The kernels a RaggedTensor's graph uses as TF builds it: DenseBincount (row lengths from
// value row ids, tf.math.bincount) and RaggedTensorToTensor (to_tensor, for one ragged
// dimension over 1-D values, from VALUE_ROWIDS with FIRST_DIM_SIZE or from ROW_SPLITS).
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

OpRegistration r_dense_bincount([] {
  OpDef d;
  d.name = "DenseBincount";
  d.inputs = {{"input", "Tidx"}, {"size", "Tidx"}, {"weights", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"Tidx", detail::kIndexTypes},
                  {"T", {DType::kInt32, DType::kInt64, DType::kFloat32, DType::kFloat64}}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(1), 0);
    const Tensor* size = c.value(1);
    const int64_t n = size ? detail::tensor_ints(*size).at(0) : -1;
    if (c.in(0).has_rank() && c.in(0).rank() == 2) {
      c.set_output(0, PartialShape({c.in(0).dim(0), n}));
    } else {
      c.set_output(0, PartialShape({n}));
    }
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &in = ctx.input(0), &size_t_ = ctx.input(1), &w = ctx.input(2);
    if (size_t_.eager_shape().rank() != 0)
      ctx.fail("Shape must be rank 0 but is rank " + std::to_string(size_t_.eager_shape().rank()));
    const int64_t size = detail::tensor_ints(size_t_).at(0);
    if (size < 0) ctx.fail("size (" + std::to_string(size) + ") must be non-negative");
    if (in.eager_shape().rank() != 1)
      ctx.fail("[ops] DenseBincount of a rank-2 input is not supported");
    const std::vector<int64_t> arr = detail::tensor_ints(in);
    for (int64_t v : arr)
      if (v < 0) ctx.fail("Input arr must be non-negative!");
    const bool weighted = w.eager_shape().num_elements() > 0;
    if (weighted && w.eager_shape() != in.eager_shape()) {
      ctx.fail("Input indices and weights must have the same shape: " +
               detail::dims_text(in.eager_shape()) + " vs " + detail::dims_text(w.eager_shape()));
    }
    const bool binary = attr_bool_or(*ctx.attrs, "binary_output", false);
    Tensor& out = ctx.allocate_output(0, w.dtype(), Shape({size}));
    visit_dtype(w.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        T* o = out.data<T>();
        std::fill(o, o + size, T(0));
        for (size_t i = 0; i < arr.size(); ++i) {
          if (arr[i] >= size) continue;
          T& bin = o[arr[i]];
          if (binary) {
            bin = T(1);
          } else {
            bin += weighted ? w.data<T>()[i] : T(1);
          }
        }
      }
    });
  };
  return d;
}());

OpRegistration r_ragged_to_tensor([] {
  OpDef d;
  d.name = "RaggedTensorToTensor";
  d.inputs = {{"shape", "Tshape"},
              {"values", "T"},
              {"default_value", "T"},
              {"row_partition_tensors", "Tindex", DType::kInvalid, "num_row_partition_tensors"}};
  d.outputs = {{"result", "T"}};
  d.type_attrs = {{"T", {}}, {"Tindex", detail::kIndexTypes}, {"Tshape", detail::kIndexTypes}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape out({-1, -1});
    if (const Tensor* s = c.value(0); s && s->eager_shape().rank() == 1) {
      out = PartialShape(detail::tensor_ints(*s));
    }
    c.set_output(0, out);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const auto it = ctx.attrs->find("row_partition_types");
    const auto* listed =
        it == ctx.attrs->end() ? nullptr : std::get_if<std::vector<std::string>>(&it->second);
    if (!listed)
      ctx.fail("[ops] RaggedTensorToTensor needs row_partition_types, a list of strings");
    const std::vector<std::string>& types = *listed;
    const Tensor &values = ctx.input(1), &dflt = ctx.input(2);
    if (values.eager_shape().rank() != 1)
      ctx.fail("[ops] RaggedTensorToTensor supports 1-D values only");
    // Per value: its row; per row: its length.
    std::vector<int64_t> rowids;
    int64_t nrows = 0;
    if (types.size() == 2 && types[0] == "FIRST_DIM_SIZE" && types[1] == "VALUE_ROWIDS") {
      nrows = detail::tensor_ints(ctx.input(3)).at(0);
      rowids = detail::tensor_ints(ctx.input(4));
    } else if (types.size() == 1 && types[0] == "ROW_SPLITS") {
      const std::vector<int64_t> splits = detail::tensor_ints(ctx.input(3));
      nrows = static_cast<int64_t>(splits.size()) - 1;
      for (int64_t r = 0; r < nrows; ++r)
        for (int64_t k = splits[static_cast<size_t>(r)]; k < splits[static_cast<size_t>(r + 1)];
             ++k)
          rowids.push_back(r);
    } else {
      ctx.fail("[ops] RaggedTensorToTensor: unsupported row_partition_types");
    }
    const int64_t nvals = values.eager_shape().num_elements();
    if (static_cast<int64_t>(rowids.size()) != nvals)
      ctx.fail("Invalid row partition: " + std::to_string(rowids.size()) + " row ids for " +
               std::to_string(nvals) + " values");
    std::vector<int64_t> col(rowids.size());
    int64_t widest = 0;
    for (size_t k = 0; k < rowids.size(); ++k) {
      col[k] = (k > 0 && rowids[k] == rowids[k - 1]) ? col[k - 1] + 1 : 0;
      widest = std::max(widest, col[k] + 1);
    }
    int64_t rows = nrows, cols = widest;
    const Tensor& shape = ctx.input(0);
    if (shape.eager_shape().rank() == 1) {
      const std::vector<int64_t> s = detail::tensor_ints(shape);
      if (s.size() != 2) ctx.fail("[ops] RaggedTensorToTensor: the shape must have rank 2");
      if (s[0] >= 0) rows = s[0];
      if (s[1] >= 0) cols = s[1];
    }
    if (dflt.eager_shape().num_elements() != 1)
      ctx.fail("[ops] RaggedTensorToTensor: default_value must be a scalar");
    Tensor& out = ctx.allocate_output(0, values.dtype(), Shape({rows, cols}));
    if (values.dtype() == DType::kString) {
      auto& o = out.mutable_string_values();
      std::fill(o.begin(), o.end(), dflt.string_values()[0]);
      for (size_t k = 0; k < rowids.size(); ++k)
        if (rowids[k] < rows && col[k] < cols)
          o[static_cast<size_t>(rowids[k] * cols + col[k])] = values.string_values()[k];
      return;
    }
    const size_t es = dtype_size(values.dtype());
    auto* o = static_cast<unsigned char*>(out.raw_data());
    const auto* v = static_cast<const unsigned char*>(values.raw_data());
    for (int64_t i = 0; i < rows * cols; ++i)
      std::memcpy(o + static_cast<size_t>(i) * es, dflt.raw_data(), es);
    for (size_t k = 0; k < rowids.size(); ++k)
      if (rowids[k] < rows && col[k] < cols)
        std::memcpy(o + static_cast<size_t>(rowids[k] * cols + col[k]) * es, v + k * es, es);
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_ragged_ops() {}
}  // namespace detail
}  // namespace tfs
