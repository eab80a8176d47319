// Functional control flow and calls: If/StatelessIf, While/StatelessWhile,
// PartitionedCall/StatefulPartitionedCall. Bodies are functions in the graph's library; the
// kernels call them through the FunctionRuntime the executor provides.
#include "kernel_util.h"
#include "tfscope/interrupt.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

bool truthiness(const Tensor& t) {
  // TF's If: a non-scalar predicate is true when it has elements.
  if (t.eager_shape().rank() != 0) return t.num_elements() > 0;
  if (t.dtype() == DType::kString) return !t.string_values()[0].empty();
  return t.item<double>() != 0.0;
}

void shapes_from_attr(InferenceContext& c, const char* attr) {
  auto it = c.attrs->find(attr);
  if (it == c.attrs->end()) return;
  const auto* shapes = std::get_if<std::vector<PartialShape>>(&it->second);
  if (!shapes) return;
  for (size_t i = 0; i < shapes->size() && i < c.output_shapes.size(); ++i)
    c.output_shapes[i] = (*shapes)[i];
}

OpDef if_def(const std::string& name, bool stateful) {
  OpDef d;
  d.name = name;
  d.inputs = {{"cond", "Tcond"}, {"input", "", DType::kInvalid, "", "Tin"}};
  d.outputs = {{"output", "", DType::kInvalid, "", "Tout"}};
  d.type_attrs = {{"Tcond", {}}};
  d.stateful = stateful;
  d.shape_fn = [](InferenceContext& c) { shapes_from_attr(c, "output_shapes"); };
  d.kernel = [](OpKernelContext& ctx) {
    bool pred = truthiness(ctx.input(0));
    const std::string& fn = attr_func(*ctx.attrs, pred ? "then_branch" : "else_branch").name;
    auto outs = ctx.runtime->call(fn, ctx.inputs.subspan(1));
    for (size_t i = 0; i < outs.size(); ++i) ctx.set_output(static_cast<int>(i), outs[i]);
  };
  return d;
}

OpDef while_def(const std::string& name, bool stateful) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "", DType::kInvalid, "", "T"}};
  d.outputs = {{"output", "", DType::kInvalid, "", "T"}};
  d.stateful = stateful;
  d.shape_fn = [](InferenceContext& c) {
    for (int i = 0; i < c.num_inputs(); ++i) c.set_output(i, c.in(i));
    shapes_from_attr(c, "output_shapes");
  };
  d.kernel = [](OpKernelContext& ctx) {
    const std::string& cond = attr_func(*ctx.attrs, "cond").name;
    const std::string& body = attr_func(*ctx.attrs, "body").name;
    std::vector<Tensor> vars(ctx.inputs.begin(), ctx.inputs.end());
    while (true) {
      poll_interrupt();  // the data decides how long this runs: let the user stop it
      auto c = ctx.runtime->call(cond, vars);
      if (c.empty() || !truthiness(c[0])) break;
      auto next = ctx.runtime->call(body, vars);
      if (next.size() != vars.size()) {
        ctx.fail("[ops] while body returned " + std::to_string(next.size()) + " values for " +
                 std::to_string(vars.size()) + " loop variables");
      }
      vars = std::move(next);
    }
    for (size_t i = 0; i < vars.size(); ++i) ctx.set_output(static_cast<int>(i), vars[i]);
  };
  return d;
}

OpDef call_def(const std::string& name, bool stateful) {
  OpDef d;
  d.name = name;
  d.inputs = {{"args", "", DType::kInvalid, "", "Tin"}};
  d.outputs = {{"output", "", DType::kInvalid, "", "Tout"}};
  d.stateful = stateful;
  d.shape_fn = [](InferenceContext& c) { shapes_from_attr(c, "_output_shapes"); };
  d.kernel = [](OpKernelContext& ctx) {
    auto outs = ctx.runtime->call(attr_func(*ctx.attrs, "f").name, ctx.inputs);
    if (ctx.outputs->empty()) {
      *ctx.outputs = std::move(outs);  // the function's results are the call's outputs
      return;
    }
    for (size_t i = 0; i < outs.size(); ++i) ctx.set_output(static_cast<int>(i), outs[i]);
  };
  return d;
}

OpRegistration r_if(if_def("If", true));
OpRegistration r_stateless_if(if_def("StatelessIf", false));
OpRegistration r_while(while_def("While", true));
OpRegistration r_stateless_while(while_def("StatelessWhile", false));
OpRegistration r_pcall(call_def("PartitionedCall", false));
OpRegistration r_spcall(call_def("StatefulPartitionedCall", true));

}  // namespace

namespace detail {
void anchor_control_ops() {}
}  // namespace detail
}  // namespace tfs
