// tf.GradientTape's recording half: the thread's tape set, which sees every op through the
// execution context's recorder (src/ops/execute.cc), the watch rules and TF's errors.
#include <algorithm>
#include <cctype>
#include <set>

#include "tape_impl.h"
#include "tfscope/context.h"
#include "tfscope/detail/call_recording.h"
#include "tfscope/errors.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"

namespace tfs {

namespace autodiff {

TensorKey key_of(const Tensor& t) {
  if (t.is_eager() && t.dtype() == DType::kResource && t.resource_handle()) {
    return {t.resource_handle().get(), -2};
  }
  if (t.is_symbolic()) return {static_cast<const void*>(t.node()), t.index()};
  return {t.id(), -1};
}

void TapeData::watch(const Tensor& t) {
  TensorKey k = key_of(t);
  if (!tensor_tape.count(k)) tensor_tape[k] = -1;
  watched.emplace(k, t);
}

void TapeData::watch_variable(const std::shared_ptr<VariableState>& v) {
  watch(Tensor::resource(v));
  for (auto& w : variables)
    if (w == v) return;
  variables.push_back(v);
}

bool TapeData::should_record(const std::vector<TensorKey>& keys,
                             std::span<const Tensor> inputs) const {
  for (size_t i = 0; i < keys.size(); ++i) {
    if (tensor_tape.count(keys[i]) && is_trainable_dtype(inputs[i].dtype())) return true;
  }
  return false;
}

namespace {

// Ops whose TF Python function opens a name scope of the op's own name around the generated
// wrapper (math_ops.matmul for MatMul and BatchMatMulV2, nn.bias_add, math_ops.cast,
// math_ops.sigmoid, nn.relu6, nn.leaky_relu, math_ops.abs, math_ops.pow, math_ops.div_no_nan):
// their gradients are built in "gradient_tape/<that scope>/". So is a Pack on axis 0, which
// tf.stack makes by autopacking, in a scope of the Pack's name.
bool python_scoped(const std::string& op, const AttrMap& attrs) {
  static const std::set<std::string> kOps = {"MatMul",  "BatchMatMulV2", "BiasAdd",   "Cast",
                                             "Sigmoid", "Relu6",         "LeakyRelu", "Abs",
                                             "Pow",     "DivNoNan"};
  if (op == "Pack") return attr_int_or(attrs, "axis", 0) == 0;
  return kOps.count(op) > 0;
}

// Ops whose wrapper TF calls with a lowercase name= (tf.concat's "concat"): op_def_library's
// scope of that name is not the forward scope.
bool library_scoped(const std::string& op) {
  return op == "ConcatV2";
}

std::string strip_suffix(const std::string& name) {  // "Maximum_1" -> "Maximum"
  size_t u = name.rfind('_');
  if (u == std::string::npos || u + 1 == name.size()) return name;
  for (size_t i = u + 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
  return name.substr(0, u);
}

// The name scope TF's tape records an op in: the scope around its generated wrapper. tfscope's
// front ends open the scope TF's op_def_library opens for the op's own inputs ("Maximum/" for
// Maximum's "Maximum/y"): that one is not the forward scope. The Python-scoped ops above have
// theirs whether or not the front end opened it.
std::string forward_scope(const OpDef& def, const AttrMap& attrs, const std::string& scope,
                          const Tensor& out) {
  const std::string& node = out.node()->name;
  const std::string last = node.substr(node.rfind('/') + 1);
  if (python_scoped(def.name, attrs)) return node + "/";
  if (scope == node + "/" && (strip_suffix(last) == def.name || library_scoped(def.name))) {
    size_t cut = node.rfind('/');
    return cut == std::string::npos ? "" : node.substr(0, cut + 1);
  }
  return scope;
}

// The tapes recording on this thread, innermost last (TF's tape set).
class TapeSet : public OpRecorder {
 public:
  std::vector<GradientTape::Impl*> tapes;

  void record(const OpDef& def, std::span<const Tensor> inputs, const AttrMap& attrs,
              std::span<const Tensor> outputs) override {
    if (outputs.empty()) return;
    GraphBuilder* b = current_builder();
    // A read of a trainable variable (a gather too: sparse_read) is watched by every tape that
    // watches accessed variables.
    if ((def.name == "ReadVariableOp" || def.name == "ResourceGather") && !inputs.empty() &&
        inputs[0].is_eager()) {
      auto var = std::dynamic_pointer_cast<VariableState>(inputs[0].resource_handle());
      if (var && var->trainable()) {
        for (auto* t : tapes)
          if (t->watch_accessed_variables && t->tape) t->tape->watch_variable(var);
      }
    }
    std::string scope;
    if (b && outputs[0].is_symbolic())
      scope = forward_scope(def, attrs, b->name_scope(), outputs[0]);
    // A function call in a graph takes a captured variable as the capture's placeholder: the tape
    // follows the variable behind it (TF's call marks the function's variables accessed).
    auto* fb = dynamic_cast<FuncGraphBuilder*>(b);
    if (fb && (def.name == "PartitionedCall" || def.name == "StatefulPartitionedCall")) {
      std::vector<Tensor> in(inputs.begin(), inputs.end());
      for (Tensor& t : in) {
        if (!t.is_symbolic() || t.dtype() != DType::kResource) continue;
        for (const Capture& c : fb->captures()) {
          if (c.placeholder != t.node() || !c.external.is_eager()) continue;
          auto var = std::dynamic_pointer_cast<VariableState>(c.external.resource_handle());
          if (!var) continue;
          if (var->trainable())
            for (auto* tp : tapes)
              if (tp->watch_accessed_variables && tp->tape && tp->builder == b)
                tp->tape->watch_variable(var);
          t = c.external;
        }
      }
      add(def, in, attrs, outputs, scope, nullptr);
      return;
    }
    add(def, inputs, attrs, outputs, scope, nullptr);
  }

  // Records the op on every tape of this graph context that follows one of its inputs.
  void add(const OpDef& def, std::span<const Tensor> inputs, const AttrMap& attrs,
           std::span<const Tensor> outputs, const std::string& scope,
           const std::shared_ptr<CustomGradient>& custom) {
    GraphBuilder* b = current_builder();
    std::vector<TensorKey> keys;
    keys.reserve(inputs.size());
    for (auto& in : inputs) keys.push_back(key_of(in));
    for (auto* t : tapes) {
      if (!t->tape || t->builder != b || !t->tape->should_record(keys, inputs)) continue;
      TapeData& d = *t->tape;
      int64_t id = d.next_op++;
      OpRecord r;
      r.def = &def;
      r.attrs = attrs;
      r.inputs.assign(inputs.begin(), inputs.end());
      r.input_keys = keys;
      r.outputs.assign(outputs.begin(), outputs.end());
      for (auto& o : outputs) {
        TensorKey k = key_of(o);
        r.output_keys.push_back(k);
        d.tensor_tape[k] = id;
      }
      r.scope = scope;
      r.custom = custom;
      d.op_tape.emplace(id, std::move(r));
    }
  }
};

TapeSet& tape_set() {
  thread_local TapeSet s;
  return s;
}

void push_tape(GradientTape::Impl* t) {
  TapeSet& s = tape_set();
  s.tapes.push_back(t);
  Context::get().set_op_recorder(&s);
}

void pop_tape(GradientTape::Impl* t) {
  TapeSet& s = tape_set();
  auto it = std::find(s.tapes.begin(), s.tapes.end(), t);
  if (it != s.tapes.end()) s.tapes.erase(it);
  if (s.tapes.empty()) Context::get().set_op_recorder(nullptr);
}

}  // namespace
}  // namespace autodiff

namespace detail {

bool tape_would_record(std::span<const Tensor> inputs) {
  autodiff::TapeSet& s = autodiff::tape_set();
  if (s.tapes.empty()) return false;
  GraphBuilder* b = current_builder();
  // A function reading a trainable variable it captured: TF's call marks it accessed.
  for (const Tensor& in : inputs) {
    if (!in.is_eager() || in.dtype() != DType::kResource) continue;
    auto var = std::dynamic_pointer_cast<VariableState>(in.resource_handle());
    if (!var || !var->trainable()) continue;
    for (auto* t : s.tapes)
      if (t->watch_accessed_variables && t->tape && t->builder == b) t->tape->watch_variable(var);
  }
  std::vector<autodiff::TensorKey> keys;
  for (const Tensor& in : inputs) keys.push_back(autodiff::key_of(in));
  for (auto* t : s.tapes)
    if (t->tape && t->builder == b && t->tape->should_record(keys, inputs)) return true;
  return false;
}

int tape_gradient_order(std::span<const Tensor> inputs) {
  // TF's TFE_Py_TapeSetPossibleGradientTypes: a persistent tape, or a second tape, recording
  // the op makes higher-order gradients possible.
  autodiff::TapeSet& s = autodiff::tape_set();
  GraphBuilder* b = current_builder();
  std::vector<autodiff::TensorKey> keys;
  for (const Tensor& in : inputs) keys.push_back(autodiff::key_of(in));
  bool watching = false;
  for (auto* t : s.tapes) {
    if (!t->tape || t->builder != b || !t->tape->should_record(keys, inputs)) continue;
    if (t->tape->persistent || watching) return 2;
    watching = true;
  }
  return watching ? 1 : 0;
}

}  // namespace detail

namespace autodiff {
namespace {

std::string dtype_repr(DType dt) {
  return "tf." + std::string(dtype_name(dt));
}

}  // namespace
}  // namespace autodiff

using autodiff::TapeData;

void record_operation(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                      CustomGradient gradient) {
  // What the record is called on the tape (TF names it after the Python function).
  static const OpDef* def = [] {
    auto* d = new OpDef();
    d->name = "CustomGradient";
    return d;
  }();
  if (outputs.empty()) return;
  autodiff::tape_set().add(*def, inputs, {}, outputs, "",
                           std::make_shared<CustomGradient>(std::move(gradient)));
}

bool is_trainable_dtype(DType dt) {
  return is_floating(dt) || dt == DType::kResource || dt == DType::kVariant;
}

std::string watch_warning(DType dt) {
  if (is_trainable_dtype(dt)) return "";
  return "The dtype of the watched tensor must be floating (e.g. tf.float32), got " +
         autodiff::dtype_repr(dt);
}
std::string gradient_source_warning(DType dt) {
  if (is_trainable_dtype(dt)) return "";
  return "The dtype of the source tensor must be floating (e.g. tf.float32) when calling "
         "GradientTape.gradient, got " +
         autodiff::dtype_repr(dt);
}
std::string gradient_target_warning(DType dt) {
  if (is_trainable_dtype(dt)) return "";
  return "The dtype of the target tensor must be floating (e.g. tf.float32) when calling "
         "GradientTape.gradient, got " +
         autodiff::dtype_repr(dt);
}

GradientTape::GradientTape(bool persistent, bool watch_accessed_variables)
    : impl_(std::make_shared<Impl>()) {
  impl_->persistent = persistent;
  impl_->watch_accessed_variables = watch_accessed_variables;
}

GradientTape::~GradientTape() {
  if (impl_->recording) autodiff::pop_tape(impl_.get());
}

void GradientTape::enter() {
  static const bool hooked = [] {
    detail::CallRecording& h = detail::call_recording();
    h.would_record = &detail::tape_would_record;
    h.call = &detail::call_recorded;
    return true;
  }();
  (void)hooked;
  if (impl_->recording) {
    value_error(
        "Tape is still recording, This can happen if you try to re-enter an "
        "already-active tape.");
  }
  if (!impl_->tape) {
    impl_->tape = std::make_shared<TapeData>();
    impl_->tape->persistent = impl_->persistent;
    impl_->tape->watch_accessed_variables = impl_->watch_accessed_variables;
  }
  impl_->builder = current_builder();
  impl_->recording = true;
  autodiff::push_tape(impl_.get());
}

void GradientTape::exit() {
  if (!impl_->recording) value_error("Tape is not recording.");
  autodiff::pop_tape(impl_.get());
  impl_->recording = false;
}

bool GradientTape::recording() const {
  return impl_->recording;
}

void GradientTape::watch(const TapeOperand& x) {
  // TF's watch on a tape that has none yet (never entered) reaches a null tape; tfscope makes
  // one, as entering would.
  if (!impl_->tape) {
    impl_->tape = std::make_shared<TapeData>();
    impl_->tape->persistent = impl_->persistent;
    impl_->tape->watch_accessed_variables = impl_->watch_accessed_variables;
  }
  if (x.variable) {
    impl_->tape->watch_variable(x.variable);
  } else if (x.tensor.defined()) {
    auto var = x.tensor.is_eager()
                   ? std::dynamic_pointer_cast<VariableState>(x.tensor.resource_handle())
                   : nullptr;
    if (var)
      impl_->tape->watch_variable(var);
    else
      impl_->tape->watch(x.tensor);
  }
}

std::vector<std::shared_ptr<VariableState>> GradientTape::watched_variables() const {
  std::vector<std::shared_ptr<VariableState>> v =
      impl_->tape ? impl_->tape->variables : impl_->last_variables;
  // TF returns them in the order the variables were created.
  std::stable_sort(v.begin(), v.end(), [](auto& a, auto& b) { return a->uid() < b->uid(); });
  return v;
}

void GradientTape::pause() {
  if (!impl_->tape) value_error("Trying to stop recording a tape which is not recording.");
  exit();
}
void GradientTape::resume() {
  enter();
}

GradientTape::StopRecording::StopRecording(GradientTape& t) : t_(t) {
  t_.pause();
}
GradientTape::StopRecording::~StopRecording() {
  if (!t_.impl_->recording) t_.resume();
}

void GradientTape::reset() {
  exit();
  impl_->tape = nullptr;
  enter();
}

std::vector<Tensor> GradientTape::gradient(const std::vector<TapeOperand>& targets,
                                           const std::vector<TapeOperand>& sources,
                                           const std::vector<Tensor>& output_gradients,
                                           UnconnectedGradients unconnected) {
  std::vector<Tensor> out;
  for (auto& g : gradient_values(targets, sources, output_gradients, unconnected))
    out.push_back(dense_gradient(g));
  return out;
}

std::vector<GradientValue> GradientTape::gradient_values(
    const std::vector<TapeOperand>& targets, const std::vector<TapeOperand>& sources,
    const std::vector<Tensor>& output_gradients, UnconnectedGradients unconnected) {
  if (!impl_->tape) {
    throw Error(ErrorKind::kRuntimeError,
                "A non-persistent GradientTape can only be used to compute one set of gradients "
                "(or jacobians)");
  }
  if (impl_->recording && !impl_->persistent) exit();
  auto flat = [](const std::vector<TapeOperand>& xs) {
    std::vector<Tensor> out;
    for (auto& x : xs) out.push_back(x.variable ? Tensor::resource(x.variable) : x.tensor);
    return out;
  };
  std::shared_ptr<TapeData> tape = impl_->tape;
  if (!impl_->persistent) {
    impl_->last_variables = tape->variables;
    impl_->tape = nullptr;
  }
  return autodiff::imperative_grad(*tape, flat(targets), flat(sources), output_gradients,
                                   unconnected);
}

}  // namespace tfs
