// Gradients of a function body (TF's gradients_util._GradientsHelper with a src_graph): what the
// gradients of If, While and function calls build. The backward ops go into a BodyGradBuilder,
// a function graph that resolves every tensor of the forward body it is handed (a branch
// argument, an intermediate) through its owner's rule, so the gradient functions of the registry
// run unchanged on the forward body's nodes. Internal to src/autodiff.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tfscope/graph_builder.h"

namespace tfs::autodiff {

class BodyGradBuilder : public FuncGraphBuilder {
 public:
  // What a forward tensor is here: an outer tensor (captured as usual) or one of this graph.
  using Resolver = std::function<Tensor(BodyGradBuilder& self, const Tensor& forward)>;

  BodyGradBuilder(std::string name, std::shared_ptr<Graph> forward, Resolver resolver);

  std::vector<Tensor> add_op(const OpDef& def, std::vector<Tensor> inputs, AttrMap attrs,
                             const std::string& name) override;
  // `t` if it is not a forward tensor, else what the resolver made of it (once per tensor).
  Tensor resolve(const Tensor& t);
  const std::shared_ptr<Graph>& forward() const { return forward_; }
  // The gradient a ControlOn names, else undefined.
  const Tensor& control() const { return control_; }

 private:
  friend class ControlOn;
  Tensor control_;
  std::shared_ptr<Graph> forward_;
  Resolver resolver_;
  std::map<std::pair<const Node*, int>, Tensor> resolved_;
};

// `with ops.control_dependencies([grad])` around the rest of a gradient function: in a function
// body's gradient, what resolving a forward tensor makes there (a While accumulator's pop) waits
// on grad, as TF's capture inside that context does. Elsewhere it does nothing.
class ControlOn {
 public:
  explicit ControlOn(const Tensor& grad);
  ~ControlOn();
  ControlOn(const ControlOn&) = delete;
  ControlOn& operator=(const ControlOn&) = delete;

 private:
  BodyGradBuilder* b_;
  Tensor prev_;
};

// In the current builder: the gradients of `fn`'s outputs (grads[i] for output i; undefined, or
// an output of an untrainable dtype, sends none) with respect to its arguments, as
// _GradientsHelper builds them in the scope `<current scope>gradients/`, each op's in
// `<op name>_grad/`. Undefined where no gradient reaches an argument. `sources` (argument
// indices) limits the sources, as a While's gradient asks for its loop variables' only; empty:
// every argument.
std::vector<Tensor> body_gradients(const GraphFunction& fn, const std::vector<Tensor>& grads,
                                   const std::vector<size_t>& sources = {});

// A forward tensor of `g`: output `o`.
Tensor tensor_of(const std::shared_ptr<Graph>& g, const Output& o);

// A copy of `f` named `name`, its graph copied node for node (the library shared), so that
// outputs can be added without touching `f`; `map` gets each node of f's graph -> its copy.
std::shared_ptr<GraphFunction> copy_function(const GraphFunction& f, const std::string& name,
                                             std::map<const Node*, Node*>& map);

}  // namespace tfs::autodiff
