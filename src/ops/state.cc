// Resource variables: VarHandleOp, ReadVariableOp, AssignVariableOp, AssignAddVariableOp,
// AssignSubVariableOp. A resource tensor points at a VariableState.
#include <map>
#include <mutex>

#include "buffer_reuse.h"
#include "float_loops.h"
#include "kernel_util.h"
#include "matmul_f32.h"
#include "sgd_update.h"
#include "tfscope/detail/kernel_run.h"
#include "tfscope/ops.h"
#include "tfscope/variable_state.h"
#include "variable_access.h"

namespace tfs {
namespace {

// VarHandleOp names a variable by (container, shared_name); the same name gives the same state.
std::shared_ptr<VariableState> lookup_or_create(const std::string& name, DType dt,
                                                const PartialShape& shape) {
  static std::mutex mu;
  static std::map<std::string, std::weak_ptr<VariableState>> table;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = table[name];
  if (auto v = slot.lock()) return v;
  auto v = std::make_shared<VariableState>(dt, shape, name + ":0", true);
  slot = v;
  return v;
}

OpRegistration r_var_handle([] {
  OpDef d;
  d.name = "VarHandleOp";
  d.outputs = {{"resource", "", DType::kResource}};
  d.stateful = true;
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const AttrMap& a = *ctx.attrs;
    std::string name = a.count("shared_name") ? attr_string(a, "shared_name") : *ctx.node_name;
    if (name.empty()) name = *ctx.node_name;
    ctx.set_output(
        0, Tensor::resource(lookup_or_create(name, attr_type(a, "dtype"), attr_shape(a, "shape"))));
  };
  return d;
}());

// ReadVariableOp's work for a node whose dtype attr is `want`: the variable's current value.
void read_variable(OpKernelContext& ctx, DType want) {
  ctx.set_output(0, detail::read_variable(ctx.input(0), want));
}

OpRegistration r_read([] {
  OpDef d;
  d.name = "ReadVariableOp";
  d.inputs = {{"resource", "", DType::kResource}};
  d.outputs = {{"value", "dtype"}};
  d.type_attrs = {{"dtype", {}}};
  d.stateful = true;
  d.kernel = [](OpKernelContext& ctx) { read_variable(ctx, attr_type(*ctx.attrs, "dtype")); };
  return d;
}());

// In a plan the dtype is read once per node (a string-keyed lookup at every read was a third
// of the op's cost in BM_MlpForward/1).
detail::PreparedKernelRegistration r_read_prepared(
    "ReadVariableOp", [](const AttrMap& attrs) -> Kernel {
      return [want = attr_type(attrs, "dtype")](OpKernelContext& ctx) { read_variable(ctx, want); };
    });

OpRegistration r_assign([] {
  OpDef d;
  d.name = "AssignVariableOp";
  d.inputs = {{"resource", "", DType::kResource}, {"value", "dtype"}};
  d.type_attrs = {{"dtype", {}}};
  d.stateful = true;
  d.kernel = [](OpKernelContext& ctx) {
    detail::variable_of(ctx, ctx.input(0))->write(ctx.input(1).clone());
  };
  return d;
}());

OpDef assign_update(const std::string& name, bool add) {
  OpDef d;
  d.name = name;
  d.inputs = {{"resource", "", DType::kResource}, {"value", "dtype"}};
  d.type_attrs = {{"dtype", {}}};
  d.stateful = true;
  d.kernel = [add](OpKernelContext& ctx) {
    auto* v = detail::variable_of(ctx, ctx.input(0));
    const Tensor& delta = ctx.input(1);
    v->update([&](const Tensor& cur) {
      if (cur.eager_shape() != delta.eager_shape()) {
        ctx.fail("Cannot update variable with shape " + detail::dims_text(cur.eager_shape()) +
                 " using a Tensor with shape " + detail::dims_text(delta.eager_shape()) +
                 ", shapes must be equal.");
      }
      Tensor next = detail::update_target(cur);
      visit_dtype(cur.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool>) {
          ctx.fail("[ops] bool variable update");
        } else {
          const T* a = cur.data<T>();
          const T* b = delta.data<T>();
          T* o = detail::reused_data<T>(next);
          const int64_t n = cur.num_elements();  // not re-counted per element
          if constexpr (std::is_same_v<T, float>) {
            if (add)
              detail::float_loop<detail::FloatOp::kAdd>(a, 1, b, 1, o, n);
            else
              detail::float_loop<detail::FloatOp::kSub>(a, 1, b, 1, o, n);
          } else if (add) {
            for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(a[i] + b[i]);
          } else {
            for (int64_t i = 0; i < n; ++i) o[i] = static_cast<T>(a[i] - b[i]);
          }
        }
      });
      return next;
    });
  };
  return d;
}

OpRegistration r_assign_add(assign_update("AssignAddVariableOp", true));
OpRegistration r_assign_sub(assign_update("AssignSubVariableOp", false));

}  // namespace

namespace detail {
void anchor_state_ops() {}

bool fused_outer_update_applies(bool ta, bool tb, int64_t m, int64_t k, int64_t n) {
  return float_loops_wide() && tf_matmul_is_outer(ta, tb, m, k, n);
}

bool fused_outer_assign_sub(const Tensor& handle, float s, bool s_first, const float* a,
                            const float* b, int64_t m, int64_t n) {
  auto v = std::dynamic_pointer_cast<VariableState>(handle.resource_handle());
  if (!v || v->dtype() != DType::kFloat32 || !v->initialized()) return false;
  bool done = false;
  v->update([&](const Tensor& cur) {
    const Shape& shape = cur.eager_shape();
    if (shape.rank() != 2 || shape.dim(0) != m || shape.dim(1) != n) return cur;
    Tensor next = update_target(cur);  // as AssignSubVariableOp's kernel
    const float* x = cur.data<float>();
    float* o = reused_data<float>(next);
    for (int64_t i = 0; i < m; ++i)
      float_outer_sub512(x + i * n, a[i], b, s, s_first, o + i * n, n);
    done = true;
    return next;
  });
  return done;
}
}  // namespace detail
}  // namespace tfs
