// The ops of sparse gradients (tf.IndexedSlices): ResourceGather (tf.gather of a variable, whose
// gradient is an IndexedSlices), ResourceScatterAdd/Sub/Update (variable.scatter_*), and
// UnsortedSegmentSum (how TF densifies an IndexedSlices). Kernels in TF 2.21's order: the scatter
// and the segment sum go through the indices in order, one row at a time.
#include <optional>
#include <type_traits>

#include "kernel_util.h"
#include "op_scope.h"
#include "tfscope/errors.h"
#include "tfscope/graph.h"
#include "tfscope/indexed_slices.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"
#include "tfscope/ops_sparse.h"
#include "tfscope/variable_state.h"
#include "variable_access.h"

namespace tfs {
namespace {

using detail::dims_text;

// SliceDebugString: "[3]" for a vector's element 3, "[1,0]" for a matrix's.
std::string slice_text(const Shape& s, int64_t flat) {
  std::vector<int64_t> idx(static_cast<size_t>(s.rank()));
  for (int d = s.rank() - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = flat % s.dim(d);
    flat /= s.dim(d);
  }
  std::string t = "[";
  for (size_t i = 0; i < idx.size(); ++i) t += (i ? "," : "") + std::to_string(idx[i]);
  return t + "]";
}

int64_t row_size(const Shape& s) {
  int64_t n = 1;
  for (int i = 1; i < s.rank(); ++i) n *= s.dim(i);
  return n;
}

// ---- ResourceGather ----

OpRegistration r_resource_gather([] {
  OpDef d;
  d.name = "ResourceGather";
  d.inputs = {{"resource", "", DType::kResource}, {"indices", "Tindices"}};
  d.outputs = {{"output", "dtype"}};
  d.type_attrs = {{"dtype", {}}, {"Tindices", detail::kIndexTypes}};
  d.stateful = true;
  d.kernel = [](OpKernelContext& ctx) {
    auto* v = detail::variable_of(ctx, ctx.input(0));
    if (attr_int_or(*ctx.attrs, "batch_dims", 0) != 0)
      ctx.fail("[ops] ResourceGather with batch_dims is not modelled");
    Tensor params = detail::read_as(*v, attr_type(*ctx.attrs, "dtype"));
    const Tensor& indices = ctx.input(1);
    const Shape &ps = params.eager_shape(), &is = indices.eager_shape();
    if (ps.rank() < 1) ctx.fail("params must be at least 1 dimensional");
    std::vector<int64_t> od(is.dims().begin(), is.dims().end());
    od.insert(od.end(), ps.dims().begin() + 1, ps.dims().end());
    Tensor& out = ctx.allocate_output(0, params.dtype(), Shape(od));
    std::vector<int64_t> idx = detail::tensor_ints(indices);
    const int64_t limit = ps.dim(0), inner = row_size(ps);
    for (size_t i = 0; i < idx.size(); ++i) {
      if (idx[i] < 0 || idx[i] >= limit) {
        ctx.fail("indices" + slice_text(is, static_cast<int64_t>(i)) + " = " +
                 std::to_string(idx[i]) + " is not in [0, " + std::to_string(limit) + ")");
      }
    }
    if (out.num_elements() == 0) return;
    detail::Mover m(params, out);
    for (size_t i = 0; i < idx.size(); ++i)
      m.copy(static_cast<int64_t>(i) * inner, idx[i] * inner, inner);
  };
  return d;
}());

// ---- ResourceScatterAdd / Sub / Update ----

enum class Scatter { kAdd, kSub, kUpdate };

OpDef scatter_op(const std::string& name, Scatter kind) {
  OpDef d;
  d.name = name;
  d.inputs = {{"resource", "", DType::kResource}, {"indices", "Tindices"}, {"updates", "dtype"}};
  d.type_attrs = {{"dtype", {}}, {"Tindices", detail::kIndexTypes}};
  d.stateful = true;
  d.kernel = [kind](OpKernelContext& ctx) {
    auto* v = detail::variable_of(ctx, ctx.input(0));
    const Tensor &indices = ctx.input(1), &updates = ctx.input(2);
    if (v->dtype() != updates.dtype())
      ctx.fail("DType of scatter resource and updates does not match.");
    v->update([&](const Tensor& cur) {
      const Shape &ps = cur.eager_shape(), &is = indices.eager_shape(), &us = updates.eager_shape();
      if (ps.rank() < 1) ctx.fail("params must be at least 1-D, got shape " + dims_text(ps));
      const int64_t limit = ps.dim(0), inner = row_size(ps);
      std::vector<int64_t> idx = detail::tensor_ints(indices);
      const bool scalar = us.rank() == 0;
      if (!scalar) {
        std::vector<int64_t> want(is.dims().begin(), is.dims().end());
        want.insert(want.end(), ps.dims().begin() + 1, ps.dims().end());
        if (us.dims() != want) {
          ctx.fail(
              "Must have updates.shape = indices.shape + params.shape[1:] or "
              "updates.shape = [], got updates.shape " +
              dims_text(us) + ", indices.shape " + dims_text(is) + ", params.shape " +
              dims_text(ps));
        }
      }
      for (size_t i = 0; i < idx.size(); ++i) {
        if (idx[i] < 0 || idx[i] >= limit) {
          ctx.fail("indices" + slice_text(is, static_cast<int64_t>(i)) + " = " +
                   std::to_string(idx[i]) + " is not in [0, " + std::to_string(limit) + ")");
        }
      }
      Tensor next = cur.clone();
      visit_dtype(cur.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
          ctx.fail("[ops] " + *ctx.op_name + " of a " + std::string(dtype_name(cur.dtype())) +
                   " variable is not modelled");
        } else {
          T* o = next.data<T>();
          const T* u = updates.data<T>();
          for (size_t i = 0; i < idx.size(); ++i) {
            T* row = o + idx[i] * inner;
            for (int64_t k = 0; k < inner; ++k) {
              const T x = scalar ? u[0] : u[static_cast<int64_t>(i) * inner + k];
              if (kind == Scatter::kAdd) row[k] = static_cast<T>(row[k] + x);
              if (kind == Scatter::kSub) row[k] = static_cast<T>(row[k] - x);
              if (kind == Scatter::kUpdate) row[k] = x;
            }
          }
        }
      });
      return next;
    });
  };
  return d;
}

OpRegistration r_scatter_add(scatter_op("ResourceScatterAdd", Scatter::kAdd));
OpRegistration r_scatter_sub(scatter_op("ResourceScatterSub", Scatter::kSub));
OpRegistration r_scatter_update(scatter_op("ResourceScatterUpdate", Scatter::kUpdate));

// ---- UnsortedSegmentSum ----

OpRegistration r_unsorted_segment_sum([] {
  OpDef d;
  d.name = "UnsortedSegmentSum";
  d.inputs = {{"data", "T"}, {"segment_ids", "Tindices"}, {"num_segments", "Tnumsegments"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}},
                  {"Tindices", detail::kIndexTypes},
                  {"Tnumsegments", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape &data = c.in(0), &ids = c.in(1);
    if (!data.has_rank() || !ids.has_rank()) return;
    int64_t n = -1;
    if (const Tensor* t = c.value(2)) n = detail::tensor_ints(*t)[0];
    std::vector<int64_t> dims = {n};
    for (int i = ids.rank(); i < data.rank(); ++i) dims.push_back(data.dims()[i]);
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &data = ctx.input(0), &ids = ctx.input(1), &num = ctx.input(2);
    const Shape &ds = data.eager_shape(), &is = ids.eager_shape();
    if (num.eager_shape().rank() != 0) {
      ctx.fail("num_segments should be a scalar, not shape " + dims_text(num.eager_shape()));
    }
    bool prefix = is.rank() <= ds.rank();
    for (int i = 0; prefix && i < is.rank(); ++i) prefix = is.dim(i) == ds.dim(i);
    if (!prefix) {
      ctx.fail("data.shape = " + dims_text(ds) +
               " does not start with segment_ids.shape = " + dims_text(is));
    }
    const int64_t rows = detail::tensor_ints(num)[0];
    if (rows < 0)
      ctx.fail("Input num_segments == " + std::to_string(rows) + " must not be negative.");
    std::vector<int64_t> od = {rows};
    for (int i = is.rank(); i < ds.rank(); ++i) od.push_back(ds.dim(i));
    Tensor& out = ctx.allocate_output(0, data.dtype(), Shape(od));
    std::vector<int64_t> seg = detail::tensor_ints(ids);
    int64_t inner = 1;
    for (int i = is.rank(); i < ds.rank(); ++i) inner *= ds.dim(i);
    visit_dtype(data.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::string>) {
        ctx.fail("[ops] UnsortedSegmentSum of " + std::string(dtype_name(data.dtype())) +
                 " is not modelled");
      } else {
        T* o = out.data<T>();
        std::fill(o, o + out.num_elements(), T(0));
        const T* x = data.data<T>();
        for (size_t i = 0; i < seg.size(); ++i) {
          const int64_t j = seg[i];
          if (j < 0) continue;  // TF drops negative ids
          if (j >= rows) {
            ctx.fail("segment_ids" + slice_text(is, static_cast<int64_t>(i)) + " = " +
                     std::to_string(j) + " is out of range [0, " + std::to_string(rows) + ")");
          }
          for (int64_t k = 0; k < inner; ++k)
            o[j * inner + k] =
                static_cast<T>(o[j * inner + k] + x[static_cast<int64_t>(i) * inner + k]);
        }
      }
    });
  };
  return d;
}());

}  // namespace

// ---- front ends ----

Tensor resource_gather(const std::shared_ptr<VariableState>& var, const Value& indices,
                       const std::string& name) {
  GraphBuilder* b = current_builder();
  detail::OpScope s(name);
  Tensor idx = convert_to_tensor(
      indices, indices.kind() == Value::Kind::kTensor ? DType::kInvalid : DType::kInt32, "indices");
  // A host list operand sends TF's generated wrapper down eager_fallback: no " name: " suffix.
  std::optional<EagerErrorName> fallback;
  if (indices.kind() != Value::Kind::kTensor) fallback.emplace("");
  Tensor out =
      execute1("ResourceGather", {Tensor::resource(var), idx},
               {{"dtype", var->dtype()}, {"batch_dims", int64_t{0}}, {"validate_indices", true}},
               s.op_name());
  if (out.is_eager() || !var->shape().has_rank() || !idx.shape().has_rank()) return out;
  std::vector<int64_t> dims = idx.shape().dims();
  const auto& vd = var->shape().dims();
  dims.insert(dims.end(), vd.begin() + 1, vd.end());
  return b->refine_shape(out, PartialShape(dims));
}

void resource_scatter(const std::string& op, const std::shared_ptr<VariableState>& var,
                      const Tensor& indices, const Tensor& updates, const std::string& name) {
  execute(op, {Tensor::resource(var), indices, updates}, {{"dtype", var->dtype()}}, name);
}

Tensor unsorted_segment_sum(const Tensor& data, const Tensor& segment_ids,
                            const Tensor& num_segments, const std::string& name) {
  return execute1("UnsortedSegmentSum", {data, segment_ids, num_segments}, {}, name);
}

Tensor indexed_slices_to_tensor(const IndexedSlices& s) {
  if (!s.dense_shape.defined()) {
    value_error("Tensor conversion requested for IndexedSlices without dense_shape");
  }
  SliceItem first;
  first.index = Value(int64_t{0});
  return unsorted_segment_sum(s.values, s.indices, getitem(s.dense_shape, {first}));
}

Tensor dense_gradient(const GradientValue& g) {
  if (auto* s = std::get_if<IndexedSlices>(&g)) return indexed_slices_to_tensor(*s);
  return std::get<Tensor>(g);
}

bool gradient_defined(const GradientValue& g) {
  return std::holds_alternative<IndexedSlices>(g) || std::get<Tensor>(g).defined();
}

namespace detail {
void anchor_sparse_update_ops() {}
}  // namespace detail
}  // namespace tfs
