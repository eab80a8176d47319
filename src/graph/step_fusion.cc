#include "step_fusion.h"

#include <optional>

#include "../ops/dense_step.h"
#include "../ops/sgd_update.h"
#include "plan_run.h"
#include "tfscope/detail/kernel_run.h"

namespace tfs::detail {

namespace {

constexpr int kPrevious = -1;  // a part's argument: the previous part's output

// One node of a fused chain: its kernel, and its arguments, each the step's input of that index
// or kPrevious.
struct Part {
  const Node* node;
  Kernel kernel;
  std::vector<int> args;
};

Part part(const Node* n, std::vector<int> args) {
  return Part{n, plan_kernel(*n->def, n->attrs), std::move(args)};
}

// The chain's kernels in turn, as their own steps would run them (a recording profile times each
// as its node); the last one writes the step's outputs.
void run_parts(const std::vector<Part>& parts, OpKernelContext& ctx, const std::string& function) {
  OpProfile* prof = OpProfile::active();
  Tensor previous;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Part& p = parts[i];
    const bool last = i + 1 == parts.size();
    std::vector<Tensor> inputs;
    for (int a : p.args) inputs.push_back(a == kPrevious ? std::move(previous) : ctx.input(a));
    std::vector<Tensor> outputs;
    OpKernelContext c;
    c.inputs = inputs;
    c.attrs = &p.node->attrs;
    c.outputs = last ? ctx.outputs : &outputs;
    c.runtime = ctx.runtime;
    c.node_name = &p.node->name;
    c.op_name = &p.node->def->name;
    try {
      // The spares the plan offers are the step's outputs': only the last part writes those.
      std::optional<OfferedOutputs> none;
      if (!last) none.emplace(nullptr, 0);
      if (prof)
        run_timed(*prof, *p.node, *p.node->def, p.kernel, function, c);
      else
        p.kernel(c);
    } catch (const Error& err) {
      throw at_node(err, p.node->name);
    }
    if (!last) previous = outputs.empty() ? Tensor() : std::move(outputs[0]);
  }
}

std::optional<int64_t> static_dim(const Output& o, int i) {
  const PartialShape& s = o.node->output_shapes.at(static_cast<size_t>(o.index));
  if (!s.has_rank() || s.rank() != 2 || s.dim(i) < 0) return std::nullopt;
  return s.dim(i);
}

class Finder {
 public:
  Finder(const std::set<const Node*>& needed, const std::set<const Node*>& fed,
         const std::vector<Output>& fetches, const std::vector<Node*>& targets,
         const std::string& function)
      : needed_(needed), fed_(fed), function_(function), pinned_(targets.begin(), targets.end()) {
    for (const Node* n : needed) {
      if (fed.count(n)) continue;
      for (const Output& in : n->inputs) ++uses_[{in.node, in.index}];
      for (const Node* c : n->control_inputs) pinned_.insert(c);
    }
    for (const Output& f : fetches) ++uses_[{f.node, f.index}];
  }

  std::map<const Node*, StepFusion> find() {
    // A Relu's layer first, so that its BiasAdd is not taken for a layer of its own.
    for (const Node* n : needed_) {
      if (runs(n, "Relu") && n->inputs.size() == 1 && only_use(n->inputs[0], "BiasAdd"))
        dense(n, n->inputs[0].node, true);
    }
    for (const Node* n : needed_) {
      if (runs(n, "BiasAdd") && !absorbed_.count(n)) dense(n, n, false);
    }
    for (const Node* n : needed_) {
      if (n->op() == "AssignSubVariableOp" && !fed_.count(n)) outer_update(n);
    }
    return std::move(found_);
  }

 private:
  // A float32 node of `op` the plan runs.
  bool runs(const Node* n, const char* op) const {
    return n->op() == op && !fed_.count(n) && n->num_outputs() == 1 &&
           n->output_dtypes.at(0) == DType::kFloat32;
  }
  // Output `o` is a float32 node of `op` whose one value only its consumer reads.
  bool only_use(const Output& o, const char* op) const {
    auto u = uses_.find({o.node, o.index});
    return o.index == 0 && runs(o.node, op) && !pinned_.count(o.node) && !absorbed_.count(o.node) &&
           u != uses_.end() && u->second == 1;
  }
  void add(const Node* at, StepFusion f) {
    for (const Node* n : f.absorbed) absorbed_.insert(n);
    found_.emplace(at, std::move(f));
  }

  // BiasAdd(MatMul(a, w), b), and the Relu `top` of it where `relu`.
  void dense(const Node* top, const Node* bias_add, bool relu) {
    if (bias_add->inputs.size() != 2 ||
        attr_string_or(bias_add->attrs, "data_format", "NHWC") != "NHWC")
      return;
    const Output& product = bias_add->inputs[0];
    if (!only_use(product, "MatMul") || product.node->inputs.size() != 2) return;
    const Node* matmul = product.node;
    const bool ta = attr_bool_or(matmul->attrs, "transpose_a", false);
    const bool tb = attr_bool_or(matmul->attrs, "transpose_b", false);
    StepFusion f;
    f.inputs = {matmul->inputs[0], matmul->inputs[1], bias_add->inputs[1]};
    std::vector<Part> parts{part(matmul, {0, 1}), part(bias_add, {kPrevious, 2})};
    f.absorbed = {matmul};
    if (relu) {
      parts.push_back(part(top, {kPrevious}));
      f.absorbed.push_back(bias_add);
    }
    f.kernel = [parts = std::move(parts), ta, tb, relu,
                function = function_](OpKernelContext& ctx) {
      if (!OpProfile::active() && dense_f32(ctx, ta, tb, relu)) return;
      run_parts(parts, ctx, function);
    };
    add(top, std::move(f));
  }

  // AssignSubVariableOp(v, Mul(s, MatMul(x, dy))) at node `a`, on inputs (v, s, x, dy).
  void outer_update(const Node* a) {
    if (a->inputs.size() != 2) return;
    const Output& mul = a->inputs[1];
    if (!only_use(mul, "Mul") || mul.node->inputs.size() != 2) return;
    const Node* matmul = nullptr;
    int scalar = 0;  // which of the Mul's inputs is s
    for (int i = 0; i < 2; ++i) {
      const Output& s = mul.node->inputs[static_cast<size_t>(i)];
      const PartialShape& shape = s.node->output_shapes.at(static_cast<size_t>(s.index));
      const Output& g = mul.node->inputs[static_cast<size_t>(1 - i)];
      if (shape.has_rank() && shape.rank() == 0 && only_use(g, "MatMul") &&
          g.node->inputs.size() == 2) {
        scalar = i;
        matmul = g.node;
      }
    }
    if (!matmul) return;
    const bool ta = attr_bool_or(matmul->attrs, "transpose_a", false);
    const bool tb = attr_bool_or(matmul->attrs, "transpose_b", false);
    const Output &x = matmul->inputs[0], &y = matmul->inputs[1];
    auto m = static_dim(x, ta ? 1 : 0), k = static_dim(x, ta ? 0 : 1);
    auto k2 = static_dim(y, tb ? 1 : 0), n = static_dim(y, tb ? 0 : 1);
    if (!m || !k || !k2 || !n || *k != 1 || *k2 != 1) return;
    if (!fused_outer_update_applies(ta, tb, *m, 1, *n)) return;
    StepFusion f;
    f.inputs = {a->inputs[0], mul.node->inputs[static_cast<size_t>(scalar)], x, y};
    f.absorbed = {mul.node, matmul};
    std::vector<Part> parts{part(matmul, {2, 3}),
                            part(mul.node, scalar == 0 ? std::vector<int>{1, kPrevious}
                                                       : std::vector<int>{kPrevious, 1}),
                            part(a, {0, kPrevious})};
    f.kernel = [parts = std::move(parts), s_first = scalar == 0, m = *m, n = *n,
                function = function_](OpKernelContext& ctx) {
      const Tensor &v = ctx.input(0), &s = ctx.input(1), &x = ctx.input(2), &dy = ctx.input(3);
      if (!OpProfile::active() && s.dtype() == DType::kFloat32 && s.num_elements() == 1 &&
          x.dtype() == DType::kFloat32 && x.num_elements() == m && dy.dtype() == DType::kFloat32 &&
          dy.num_elements() == n &&
          fused_outer_assign_sub(v, s.data<float>()[0], s_first, x.data<float>(), dy.data<float>(),
                                 m, n))
        return;
      run_parts(parts, ctx, function);
    };
    add(a, std::move(f));
  }

  const std::set<const Node*>& needed_;
  const std::set<const Node*>& fed_;
  const std::string& function_;
  std::set<const Node*> pinned_;  // control inputs and targets
  std::map<std::pair<const Node*, int>, int> uses_;
  std::set<const Node*> absorbed_;
  std::map<const Node*, StepFusion> found_;
};

}  // namespace

std::map<const Node*, StepFusion> find_step_fusions(const std::set<const Node*>& needed,
                                                    const std::set<const Node*>& fed,
                                                    const std::vector<Output>& fetches,
                                                    const std::vector<Node*>& targets,
                                                    const std::string& function) {
  return Finder(needed, fed, fetches, targets, function).find();
}

}  // namespace tfs::detail
