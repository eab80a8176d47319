// tf.gradients: the symbolic gradient of a graph being built, as TF 2.21's gradients_util.py
// builds it (no tape): the ops between the sources and the targets, each run from the targets
// back when every consumer on the path has sent its gradient (first in first out), the
// gradients of an op's output summed by AddN in the "gradients/" scope, its gradient function
// called in "gradients/<op name>_grad/", the targets' default gradients Fill "grad_ys_<i>".
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "tape_impl.h"
#include "tfscope/errors.h"
#include "tfscope/gradients.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/tape.h"

namespace tfs {

namespace {

using Key = std::pair<Node*, int>;

// `with ops.name_scope(base)`: a unique scope, entered.
class NameScope {
 public:
  NameScope(GraphBuilder* b, const std::string& base) : b_(b) {
    b_->push_scope(b_->unique_name(base, true));
  }
  ~NameScope() { b_->pop_scope(); }
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

 private:
  GraphBuilder* b_;
};

bool trainable(DType dt) {
  return is_trainable_dtype(dt);
}

Tensor default_grad_y(const Tensor& y, size_t i) {
  // array_ops.ones(array_ops.shape(y), name="grad_ys_<i>").
  Tensor s = shape(y);
  GraphBuilder* b = current_builder();
  std::string scope = b->unique_name("grad_ys_" + std::to_string(i), true);
  b->push_scope(scope);
  Tensor one = constant(Value(1.0), y.dtype(), "Const");
  b->pop_scope();
  return execute1("Fill", {s, one}, {}, scope + "/");
}

}  // namespace

std::vector<GradientValue> graph_gradients(const std::vector<Tensor>& ys,
                                           const std::vector<Tensor>& xs,
                                           const std::vector<Tensor>& grad_ys,
                                           UnconnectedGradients unconnected,
                                           const std::string& name) {
  GraphBuilder* b = current_builder();
  if (!b) {
    throw Error(ErrorKind::kRuntimeError,
                "tf.gradients is not supported when eager execution is enabled. Use "
                "tf.GradientTape instead.");
  }
  if (!grad_ys.empty() && grad_ys.size() != ys.size()) {
    value_error("Length mismatch. Passed " + std::to_string(grad_ys.size()) + " grad_ys for " +
                std::to_string(ys.size()) + " ys");
  }
  std::optional<NameScope> scope;
  scope.emplace(b, name.empty() ? "gradients" : name);
  Graph* g = nullptr;
  std::vector<Tensor> sources;
  auto* fb = dynamic_cast<FuncGraphBuilder*>(b);
  for (const Tensor& x : xs) {
    // A variable is differentiated by its handle (captured here).
    if (x.is_eager() && x.dtype() == DType::kResource && fb) {
      sources.push_back(fb->capture(x, "x"));
    } else {
      sources.push_back(x);
    }
  }
  for (const Tensor& t : ys)
    if (t.is_symbolic()) g = t.graph().get();
  for (const Tensor& t : sources) {
    if (!t.is_symbolic()) value_error("tf.gradients: a source is not a tensor of this graph");
  }
  std::vector<GradientValue> out(xs.size(), Tensor());
  if (!g) return out;

  // Consumers of each node, in graph order.
  std::map<Node*, std::vector<Node*>> consumers;
  for (auto& n : g->nodes()) {
    for (const Output& in : n->inputs) consumers[in.node].push_back(n.get());
  }
  // _MarkReachedOps from the sources' ops.
  std::set<Node*> reached;
  std::deque<Node*> q;
  for (auto& x : sources) q.push_back(x.node());
  while (!q.empty()) {
    Node* n = q.front();
    q.pop_front();
    if (!reached.insert(n).second) continue;
    bool any_trainable = false;
    for (DType dt : n->output_dtypes) any_trainable = any_trainable || trainable(dt);
    if (!any_trainable) continue;
    for (Node* c : consumers[n]) q.push_back(c);
  }
  std::set<Node*> to_ops;
  for (auto& y : ys)
    if (y.is_symbolic()) to_ops.insert(y.node());
  // Between ops: reached from the sources, reaching the targets.
  std::set<Node*> between;
  std::vector<Node*> between_list;
  std::set<Node*> reach_left = reached;
  for (auto& y : ys)
    if (y.is_symbolic()) q.push_back(y.node());
  while (!q.empty()) {
    Node* n = q.front();
    q.pop_front();
    if (!reach_left.count(n)) continue;
    between.insert(n);
    between_list.push_back(n);
    reach_left.erase(n);
    for (const Output& in : n->inputs) q.push_back(in.node);
  }
  std::map<Node*, int> pending;
  for (Node* n : between_list)
    for (const Output& in : n->inputs)
      if (between.count(in.node)) pending[in.node] += 1;

  std::map<Key, std::vector<GradientValue>> grads;
  for (size_t i = 0; i < ys.size(); ++i) {
    if (!ys[i].is_symbolic()) continue;
    Tensor gy = grad_ys.empty() || !grad_ys[i].defined()
                    ? default_grad_y(ys[i], i)
                    : execute1("Identity", {grad_ys[i]}, {}, "grad_ys_" + std::to_string(i));
    grads[{ys[i].node(), ys[i].index()}].push_back(gy);
  }
  std::set<Node*> stop;
  for (auto& x : sources) {
    bool is_stop = true;
    for (const Output& in : x.node()->inputs) is_stop = is_stop && pending[in.node] <= 0;
    if (is_stop) stop.insert(x.node());
  }
  std::set<Node*> queued;
  for (auto& y : ys) {
    if (!y.is_symbolic()) continue;
    Node* n = y.node();
    if (pending[n] == 0 && !queued.count(n) && reached.count(n)) {
      queued.insert(n);
      q.push_back(n);
    }
  }
  while (!q.empty()) {
    Node* n = q.front();
    q.pop_front();
    std::vector<GradientValue> out_grads(static_cast<size_t>(n->num_outputs()), Tensor());
    bool has = false;
    for (int i = 0; i < n->num_outputs(); ++i) {
      auto it = grads.find({n, i});
      if (it == grads.end() || it->second.empty()) continue;
      GradientValue a = autodiff::aggregate_gradients(it->second);
      it->second = {a};
      out_grads[static_cast<size_t>(i)] = a;
      has = true;
    }
    std::vector<GradientValue> in_grads(n->inputs.size(), Tensor());
    bool not_diff = false;
    const SparseGradientFunction* sparse = find_sparse_gradient(n->op());
    const GradientFunction* dense = sparse ? nullptr : find_gradient(n->op(), &not_diff);
    if (has && !stop.count(n) && !not_diff) {
      if (!sparse && !dense) {
        throw Error(ErrorKind::kLookupError,
                    "No gradient defined for operation'" + n->name + "' (op type: " + n->op() +
                        "). In general every operation must have an associated "
                        "`@tf.RegisterGradient` for correct autodiff, which this op is lacking. "
                        "If you want to pretend this operation is a constant in your program, "
                        "you may insert `tf.stop_gradient`. This can be useful to silence the "
                        "error in cases where you know gradients are not needed, e.g. the "
                        "forward pass of tf.custom_gradient. Please see more details in "
                        "https://www.tensorflow.org/api_docs/python/tf/custom_gradient.");
      }
      GradOp op;
      op.type = n->op();
      op.attrs = n->attrs;
      for (const Output& in : n->inputs) op.inputs.push_back(g->tensor(in.node, in.index));
      for (int i = 0; i < n->num_outputs(); ++i) op.outputs.push_back(g->tensor(n, i));
      for (int i = 0; i < n->num_outputs(); ++i) {
        auto& og = out_grads[static_cast<size_t>(i)];
        if (!gradient_defined(og) && trainable(n->output_dtypes[static_cast<size_t>(i)]) &&
            !accepts_none_gradient(n->op(), i)) {
          og = zeros_like(op.outputs[static_cast<size_t>(i)]);
        }
      }
      NameScope grad_scope(b, n->name + "_grad");
      if (sparse) {
        in_grads = (*sparse)(op, out_grads);
      } else {
        std::vector<Tensor> d;
        for (auto& o : out_grads) d.push_back(dense_gradient(o));
        in_grads.clear();
        for (Tensor& t : (*dense)(op, d)) in_grads.emplace_back(std::move(t));
      }
    }
    for (size_t i = 0; i < n->inputs.size() && i < in_grads.size(); ++i) {
      if (gradient_defined(in_grads[i]))
        grads[{n->inputs[i].node, n->inputs[i].index}].push_back(in_grads[i]);
    }
    for (const Output& in : n->inputs) {
      if (--pending[in.node] == 0) q.push_back(in.node);
    }
  }
  std::vector<bool> connected(sources.size(), false);
  for (size_t i = 0; i < sources.size(); ++i) {
    auto it = grads.find({sources[i].node(), sources[i].index()});
    if (it == grads.end() || it->second.empty()) continue;
    out[i] = autodiff::aggregate_gradients(it->second);
    connected[i] = true;
  }
  // _GetGrad runs after the gradients scope is closed: an unconnected source's zeros are
  // "zeros_like" at the caller's scope.
  scope.reset();
  for (size_t i = 0; i < sources.size(); ++i) {
    if (!connected[i] && unconnected == UnconnectedGradients::kZero)
      out[i] = zeros_like(sources[i]);
  }
  return out;
}

}  // namespace tfs
