// tape.gradient's backward pass, in TF 2.21's order (tensorflow/c/eager/tape.h ComputeGradient):
// the ops between the targets and the sources are found from the targets, each is run when every
// use of its outputs has sent its gradient, in a first-in first-out queue; a tensor's gradients
// are summed by AddN when it is read. While a graph is built, each gradient function runs in the
// name scope "gradient_tape/<the forward op's scope>", as TF's _gradient_function opens it.
#include <algorithm>
#include <deque>
#include <set>

#include "tape_impl.h"
#include "tfscope/errors.h"
#include "tfscope/gradients.h"

namespace tfs::autodiff {

namespace {

struct BackpropState {
  std::map<int64_t, const OpRecord*> ops;
  std::map<TensorKey, int> usage;  // how many recorded uses still owe a gradient
  std::map<int64_t, int> missing;  // op -> outputs whose gradients are not all in
};

BackpropState prepare(const TapeData& tape, const std::vector<TensorKey>& targets) {
  BackpropState s;
  std::vector<TensorKey> stack(targets.begin(), targets.end());
  while (!stack.empty()) {
    TensorKey k = stack.back();
    stack.pop_back();
    auto t = tape.tensor_tape.find(k);
    if (t == tape.tensor_tape.end() || t->second == -1) continue;
    auto op = tape.op_tape.find(t->second);
    if (op == tape.op_tape.end() || s.ops.count(t->second)) continue;
    s.ops[t->second] = &op->second;
    for (const TensorKey& in : op->second.input_keys) {
      auto u = s.usage.find(in);
      if (u != s.usage.end()) {
        u->second++;
      } else {
        s.usage[in] = 1;
        if (tape.tensor_tape.count(in)) stack.push_back(in);
      }
    }
  }
  for (auto& [k, n] : s.usage) {
    auto t = tape.tensor_tape.find(k);
    if (t != tape.tensor_tape.end() && t->second != -1) s.missing[t->second] += 1;
  }
  return s;
}

// The gradient an output that none reached gets: zeros of its shape (TF's ZerosLike of the
// tape's tensor: a zeros constant when the shape is static, else ZerosLike).
Tensor zeros_for(const Tensor& t) {
  const PartialShape& s = t.shape();
  if (s.is_fully_defined()) return zeros(s.dims(), t.dtype());
  return zeros_like(t);
}

// The gradient of a target no one supplied: ones of its shape.
Tensor ones_for(const Tensor& t) {
  const PartialShape& s = t.shape();
  if (t.is_eager()) return ones(t.eager_shape().dims(), t.dtype());
  if (s.is_fully_defined()) return ones(s.dims(), t.dtype());
  return ones_like(t);
}

// Opens TF's gradient name scope while a graph is built.
class GradientScope {
 public:
  GradientScope(const std::string& prefix, const std::string& forward_scope)
      : b_(current_builder()) {
    if (!b_) return;
    std::string s = prefix + forward_scope;
    s.pop_back();  // push_scope takes the full scope without its slash
    b_->push_scope(s);
  }
  ~GradientScope() {
    if (b_) b_->pop_scope();
  }
  GradientScope(const GradientScope&) = delete;
  GradientScope& operator=(const GradientScope&) = delete;

 private:
  GraphBuilder* b_;
};

std::vector<GradientValue> call_gradient(const TapeData& tape, const OpRecord& r,
                                         const std::vector<int>& skip,
                                         const std::vector<GradientValue>& out_grads) {
  GradOp op{r.def->name, r.attrs, r.inputs, r.outputs, skip};
  std::vector<GradientValue> g;
  if (r.custom) {
    std::vector<Tensor> dense;
    for (auto& o : out_grads) dense.push_back(dense_gradient(o));
    for (Tensor& t : (*r.custom)(dense)) g.emplace_back(std::move(t));
    if (g.size() != r.inputs.size()) {
      value_error("[autodiff] a custom gradient returned " + std::to_string(g.size()) +
                  " gradients for " + std::to_string(r.inputs.size()) + " inputs");
    }
    return g;
  }
  if (const SparseGradientFunction* sparse = find_sparse_gradient(r.def->name)) {
    GradientScope scope(tape.grad_scope_prefix, r.scope);
    g = (*sparse)(op, out_grads);
  } else {
    bool not_diff = false;
    const GradientFunction* fn = find_gradient(r.def->name, &not_diff);
    if (not_diff) return std::vector<GradientValue>(r.inputs.size());
    if (!fn) {
      throw Error(ErrorKind::kLookupError, "gradient registry has no entry for: " + r.def->name);
    }
    GradientScope scope(tape.grad_scope_prefix, r.scope);
    std::vector<Tensor> dense;
    for (auto& o : out_grads) dense.push_back(dense_gradient(o));
    for (Tensor& t : (*fn)(op, dense)) g.emplace_back(std::move(t));
  }
  if (g.size() != r.inputs.size()) {
    throw Error(ErrorKind::kValueError, "[autodiff] the gradient of " + r.def->name + " returned " +
                                            std::to_string(g.size()) + " gradients for " +
                                            std::to_string(r.inputs.size()) + " inputs");
  }
  return g;
}

}  // namespace

// TF's _aggregate_grads: one gradient as it is; tensors summed by AddN; with an IndexedSlices among
// tensors, AddN of them all densified (math_ops.add_n converts each); IndexedSlices only, their
// values and indices concatenated (AggregateIndexedSlicesGradients, indices cast to int64 when
// their dtypes differ), the first one's dense_shape.
GradientValue aggregate_gradients(const std::vector<GradientValue>& grads) {
  if (grads.size() == 1) return grads[0];
  bool any_dense = false, all_dense = true;
  for (auto& g : grads) {
    bool dense = std::holds_alternative<Tensor>(g);
    any_dense = any_dense || dense;
    all_dense = all_dense && dense;
  }
  const int64_t n = static_cast<int64_t>(grads.size());
  if (any_dense) {
    std::vector<Tensor> ts;
    for (auto& g : grads) ts.push_back(all_dense ? std::get<Tensor>(g) : dense_gradient(g));
    return execute1("AddN", ts, {{"N", n}}, "AddN");
  }
  bool same_index_type = true;
  const DType first = std::get<IndexedSlices>(grads[0]).indices.dtype();
  for (auto& g : grads)
    same_index_type = same_index_type && std::get<IndexedSlices>(g).indices.dtype() == first;
  std::vector<Tensor> values, indices;
  for (auto& g : grads) {
    const auto& s = std::get<IndexedSlices>(g);
    values.push_back(s.values);
    indices.push_back(same_index_type || s.indices.dtype() == DType::kInt64
                          ? s.indices
                          : cast(s.indices, DType::kInt64));
  }
  return IndexedSlices{concat(values, 0), concat(indices, 0),
                       std::get<IndexedSlices>(grads[0]).dense_shape};
}

std::vector<GradientValue> imperative_grad(TapeData& tape, const std::vector<Tensor>& targets,
                                           const std::vector<Tensor>& sources,
                                           const std::vector<Tensor>& output_gradients,
                                           UnconnectedGradients unconnected) {
  if (!output_gradients.empty() && output_gradients.size() != targets.size()) {
    value_error("Length of output_gradients (" + std::to_string(output_gradients.size()) +
                ") must equal length of targets (" + std::to_string(targets.size()) + ")");
  }
  std::vector<TensorKey> target_keys, source_keys;
  for (auto& t : targets) target_keys.push_back(key_of(t));
  for (auto& s : sources) source_keys.push_back(key_of(s));
  std::set<TensorKey> source_set(source_keys.begin(), source_keys.end());

  BackpropState state = prepare(tape, target_keys);

  // Ops none of whose outputs feed another op on the path start the queue.
  std::deque<int64_t> queue;
  for (auto& [id, rec] : state.ops)
    if (!state.missing.count(id)) queue.push_front(id);

  std::map<TensorKey, std::vector<GradientValue>> gradients;
  for (size_t i = 0; i < targets.size(); ++i) {
    const TensorKey& k = target_keys[i];
    if (!output_gradients.empty() && output_gradients[i].defined()) {
      gradients[k].push_back(output_gradients[i]);
      continue;
    }
    auto t = tape.tensor_tape.find(k);
    bool made_by_op =
        t != tape.tensor_tape.end() && t->second != -1 && tape.op_tape.count(t->second);
    if (made_by_op || source_set.count(k)) gradients[k].push_back(ones_for(targets[i]));
  }

  std::set<int64_t> done;
  while (!queue.empty()) {
    int64_t id = queue.back();
    queue.pop_back();
    if (done.count(id)) continue;
    done.insert(id);
    const OpRecord& r = *state.ops.at(id);

    std::vector<int> skip;
    for (size_t i = 0; i < r.input_keys.size(); ++i) {
      if (!tape.tensor_tape.count(r.input_keys[i]) && !source_set.count(r.input_keys[i]))
        skip.push_back(static_cast<int>(i));
    }
    std::vector<GradientValue> out_grads(r.outputs.size());
    std::vector<size_t> zero_indices;
    bool any = false;
    for (size_t i = 0; i < r.outputs.size(); ++i) {
      auto g = gradients.find(r.output_keys[i]);
      if (g == gradients.end() || g->second.empty()) {
        if (!accepts_none_gradient(r.def->name, static_cast<int>(i))) zero_indices.push_back(i);
        continue;
      }
      any = true;
      out_grads[i] = aggregate_gradients(g->second);
      if (!source_set.count(r.output_keys[i])) {
        gradients.erase(g);
      } else {
        g->second = {out_grads[i]};
      }
    }
    std::vector<GradientValue> in_grads(r.inputs.size());
    if (any) {
      for (size_t i : zero_indices) out_grads[i] = zeros_for(r.outputs[i]);
      in_grads = call_gradient(tape, r, skip, out_grads);
    }
    for (size_t i = 0; i < in_grads.size(); ++i) {
      const TensorKey& k = r.input_keys[i];
      if (gradient_defined(in_grads[i])) gradients[k].push_back(in_grads[i]);
      auto u = state.usage.find(k);
      if (u == state.usage.end() || --u->second > 0) continue;
      auto t = tape.tensor_tape.find(k);
      if (t == tape.tensor_tape.end() || t->second == -1) continue;
      auto m = state.missing.find(t->second);
      if (m != state.missing.end() && --m->second == 0) queue.push_front(t->second);
    }
  }
  if (!tape.persistent) tape.op_tape.clear();

  std::vector<GradientValue> result;
  for (size_t i = 0; i < sources.size(); ++i) {
    auto g = gradients.find(source_keys[i]);
    if (g != gradients.end() && !g->second.empty()) {
      if (g->second.size() > 1) g->second = {aggregate_gradients(g->second)};
      result.push_back(g->second[0]);
      continue;
    }
    if (unconnected == UnconnectedGradients::kNone) {
      result.emplace_back(Tensor());
      continue;
    }
    const Tensor& s = sources[i];
    auto var =
        s.is_eager() ? std::dynamic_pointer_cast<VariableState>(s.resource_handle()) : nullptr;
    if (var)
      result.push_back(zeros(var->shape().dims(), var->dtype()));
    else
      result.push_back(zeros_like(s));
  }
  return result;
}

}  // namespace tfs::autodiff
