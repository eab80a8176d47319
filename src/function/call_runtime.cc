// Calling a ConcreteFunction. A call is an op: eagerly the StatefulPartitionedCall/
// PartitionedCall goes through the op dispatch and runs this function's plan; while another
// graph is being built, it becomes a call node there, with this function in that graph's library
// and this function's captures fed by the caller (captured in its turn), as TF builds it.
#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <set>

#include "binding.h"
#include "tfscope/detail/call_recording.h"
#include "tfscope/nest.h"
#include "tracer.h"

namespace tfs {

namespace detail {

namespace {

template <class Flat>
void feed_tensors(const TraceType& t, const Value& v, Flat& flat);

// feed_tensors of a nest or a custom type.
template <class Flat>
void feed_nested(const TraceType& t, const Value& v, Flat& flat) {
  using K = TraceType::Kind;
  switch (t.kind()) {
    case K::kList:
    case K::kTuple:
    case K::kNamedTuple:
      for (size_t i = 0; i < t.children().size(); ++i)
        feed_tensors(t.children()[i], v.items()[i], flat);
      return;
    case K::kDict:
      for (size_t i : nest::sorted_key_order(t.keys()))
        feed_tensors(t.children()[i], *v.dict_get(t.keys()[i]), flat);
      return;
    case K::kCustom:
      for (Tensor& x : t.custom().to_tensors(v)) flat.push_back(std::move(x));
      return;
    default:
      return;
  }
}

// Appends the tensors one argument of type `t` feeds, in nest's flat order (dict keys sorted).
// A tensor or a literal, what most arguments are, costs no more than a switch.
template <class Flat>
[[gnu::always_inline]] inline void feed_tensors(const TraceType& t, const Value& v, Flat& flat) {
  using K = TraceType::Kind;
  switch (t.kind()) {
    case K::kLiteral:
    case K::kWeakref:
      return;
    case K::kTensorSpec:
      flat.push_back(v.kind() == Value::Kind::kTensor ? v.as_tensor()
                                                      : convert_to_tensor(v, t.spec().dtype));
      return;
    case K::kVariableSpec:
      flat.push_back(Tensor::resource(v.as_variable()));
      return;
    default:
      feed_nested(t, v, flat);
  }
}

// A call's flat inputs, held on the stack when they are few, as they are in most calls: a cache
// hit allocates no vector for them.
class CallTensors {
 public:
  CallTensors() = default;
  CallTensors(const CallTensors&) = delete;
  CallTensors& operator=(const CallTensors&) = delete;
  [[gnu::always_inline]] void push_back(Tensor t) {
    if (heap_.empty() && size_ < kInline) {
      inline_[size_++] = std::move(t);
      return;
    }
    spill(std::move(t));
  }
  std::span<Tensor> span() { return {heap_.empty() ? inline_.data() : heap_.data(), size_}; }

 private:
  [[gnu::noinline]] void spill(Tensor t) {
    if (heap_.empty()) {
      heap_.reserve(2 * kInline);
      for (Tensor& x : inline_) heap_.push_back(std::move(x));
    }
    heap_.push_back(std::move(t));
    ++size_;
  }

  static constexpr size_t kInline = 4;
  std::array<Tensor, kInline> inline_;
  std::vector<Tensor> heap_;
  size_t size_ = 0;
};

}  // namespace

std::vector<Tensor> flatten_arguments(const FunctionType& type, std::span<const Value> values,
                                      size_t extra) {
  std::vector<Tensor> flat;
  flat.reserve(type.params.size() + extra);
  for (size_t i = 0; i < type.params.size(); ++i)
    feed_tensors(type.params[i].type, values[i], flat);
  return flat;
}

}  // namespace detail

std::vector<Tensor> detail::Tracer::run_eager(const ConcreteFunction& cf,
                                              std::span<const Tensor> inputs) {
  if (cf.symbolic_captures_) {
    // A capture of another graph's tensor (one that escaped its trace) cannot be fed eagerly.
    for (auto& t : inputs)
      if (t.is_symbolic()) out_of_scope_error(t);
  }
  try {
    // Under a tape that records the call: TF's forward function, recorded for the backward one.
    const CallRecording& rec = call_recording();
    if (rec.would_record && rec.would_record(inputs))
      return rec.call(*cf.graph_fn_, *cf.call_def_, cf.call_attrs_, inputs);
    // The call op's kernel (src/ops/control.cc) runs `f` through the runtime it is given, and
    // this function's runtime resolves `f` to its own plan: so an eager call runs that plan
    // directly, without the kernel dispatch and its attr lookup (the same run, the same errors).
    if (cf.runtime_) return cf.runtime_->call(cf.graph_fn_->name, inputs);
    return execute_eager(*cf.call_def_, inputs, cf.call_attrs_, cf.call_def_->name, nullptr);
  } catch (const Error& e) {
    std::string msg = e.what();
    if (is_kernel_status(e.kind()) && msg.find("[[{{node ") != std::string::npos) {
      throw Error(e.kind(), "Graph execution error:\n\n" + msg + " [Op:" + cf.name_ + "]");
    }
    throw;
  }
}

Value detail::Tracer::call_bound(const ConcreteFunction& cf, std::span<const Value> values,
                                 bool eager) {
  if (!eager) return cf.call_flat(flatten_arguments(cf.type_, values, cf.fed_captures_.size()));
  CallTensors inputs;
  for (size_t i = 0; i < cf.type_.params.size(); ++i)
    feed_tensors(cf.type_.params[i].type, values[i], inputs);
  for (const Tensor& c : cf.fed_captures_) inputs.push_back(c);
  std::vector<Tensor> results = run_eager(cf, inputs.span());
  size_t k = 0;
  return rebuild(cf.output_template_, results, k);
}

std::vector<Tensor> ConcreteFunction::call_eager(std::vector<Tensor> inputs) const {
  inputs.insert(inputs.end(), fed_captures_.begin(), fed_captures_.end());
  return detail::Tracer::run_eager(*this, inputs);
}

std::vector<Tensor> ConcreteFunction::call_in_graph(const std::vector<Tensor>& flat_args) const {
  auto* b = dynamic_cast<FuncGraphBuilder*>(current_builder());
  if (!b)
    invalid_argument("[function] a call of " + name_ + " needs a function graph to build into");
  if (flat_args.size() != input_placeholders_.size())
    invalid_argument("[function] " + name_ + " takes " +
                     std::to_string(input_placeholders_.size()) + " inputs, got " +
                     std::to_string(flat_args.size()));
  // The call converts its inputs in the caller's scope (functional_ops.partitioned_call opens
  // no scope of its own): an outer graph's tensor is captured as "cond/x", and TF's
  // FuncGraph.capture names a captured eager tensor by a fresh uid ("14", "blk/52"), small ones
  // becoming a Const, others a Placeholder the caller feeds.
  auto as_input = [&](const Tensor& t) {
    if (t.is_symbolic() && t.graph() == b->graph()) return t;
    return b->capture(t, t.is_eager() ? std::to_string(next_uid()) : std::string());
  };
  std::vector<Tensor> inputs;
  inputs.reserve(flat_args.size() + fed_captures_.size());
  for (const Tensor& t : flat_args) inputs.push_back(as_input(t));
  for (const Tensor& c : fed_captures_) inputs.push_back(as_input(c));
  b->graph()->add_function(graph_fn_);
  std::vector<Tensor> outs = execute(*call_def_, inputs, call_attrs_, call_def_->name);
  std::vector<PartialShape> in_shapes;
  in_shapes.reserve(inputs.size());
  for (const Tensor& t : inputs) in_shapes.push_back(t.shape());
  std::vector<PartialShape> shapes = infer_call_output_shapes(*graph_fn_, in_shapes);
  for (size_t i = 0; i < outs.size() && i < shapes.size(); ++i)
    outs[i] = b->refine_shape(outs[i], shapes[i]);
  return outs;
}

namespace {

// A copy of the caller's arguments with room for the `captures` call_eager appends: one
// allocation, not two.
std::vector<Tensor> with_room(const std::vector<Tensor>& flat_args, size_t captures) {
  std::vector<Tensor> inputs;
  inputs.reserve(flat_args.size() + captures);
  inputs.assign(flat_args.begin(), flat_args.end());
  return inputs;
}

}  // namespace

std::vector<Tensor> ConcreteFunction::run_flat(const std::vector<Tensor>& flat_args) const {
  if (!executing_eagerly()) return call_in_graph(flat_args);
  return call_eager(with_room(flat_args, fed_captures_.size()));
}

Value ConcreteFunction::call_flat(const std::vector<Tensor>& flat_args) const {
  return call_flat(with_room(flat_args, fed_captures_.size()));
}

Value ConcreteFunction::call_flat(std::vector<Tensor>&& flat_args) const {
  std::vector<Tensor> results =
      executing_eagerly() ? call_eager(std::move(flat_args)) : call_in_graph(flat_args);
  size_t k = 0;
  return detail::rebuild(output_template_, results, k);
}

Value ConcreteFunction::operator()(const std::vector<Value>& args, const Kwargs& kwargs) const {
  // Structured signature: bind, then each parameter must be an instance of its traced type.
  std::string structured_err;
  try {
    auto b = detail::bind_arguments(params_, args, kwargs);
    if (b.values.size() != type_.params.size()) type_error("parameter count changed");
    // Each argument must be an instance of its traced type: tensors cast to their spec, nests
    // of the same kind and length (a dict with the same keys), other values equal. The flat
    // inputs then come in the trace's order (dict keys sorted), as for a Function's call.
    TraceTypeBuilder tb;
    using K = TraceType::Kind;
    std::function<void(const TraceType&, const Value&)> check = [&](const TraceType& t,
                                                                    const Value& v) {
      auto cast_error = [&] { type_error("Can not cast " + v.repr() + " to " + t.repr()); };
      switch (t.kind()) {
        case K::kTensorSpec: {
          Tensor x = v.kind() == Value::Kind::kTensor ? v.as_tensor()
                                                      : convert_to_tensor(v, t.spec().dtype);
          if (!TensorSpec::from_tensor(x).is_subtype_of(TensorSpec(t.spec().shape, t.spec().dtype)))
            type_error("Can not cast " + TensorSpec::from_tensor(x).repr() + " to " +
                       t.spec().repr());
          return;
        }
        case K::kVariableSpec:
          if (v.kind() != Value::Kind::kVariable) cast_error();
          return;
        case K::kCustom:
          t.custom().cast(v);
          return;
        case K::kList:
        case K::kTuple:
        case K::kDict:
          if (std::string e = detail::container_mismatch(v, t); !e.empty()) type_error(e);
          if (t.kind() == K::kDict) {
            for (size_t i = 0; i < t.keys().size(); ++i)
              check(t.children()[i], *v.dict_get(t.keys()[i]));
          } else {
            for (size_t i = 0; i < t.children().size(); ++i) check(t.children()[i], v.items()[i]);
          }
          return;
        case K::kNamedTuple:
          if (std::string e = detail::namedtuple_mismatch(v, t); !e.empty()) type_error(e);
          for (size_t i = 0; i < t.children().size(); ++i) check(t.children()[i], v.items()[i]);
          return;
        default:
          if (!(tb.from_value(v) == t)) cast_error();
      }
    };
    for (size_t i = 0; i < type_.params.size(); ++i) check(type_.params[i].type, b.values[i]);
    return call_flat(detail::flatten_arguments(type_, b.values, fed_captures_.size()));
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTypeError) throw;
    structured_err = "Binding inputs to tf.function failed due to `" + std::string(e.what()) +
                     "`. Received args: " + detail::args_repr(args) +
                     " and kwargs: " + detail::kwargs_repr(kwargs) +
                     " for signature: " + pretty_printed_signature(false) + ".";
  }
  // Flat signature: tensors only, one per flattened tensor input.
  std::string flat_name = fn_name_ + "(";
  for (size_t i = 0; i < input_placeholders_.size(); ++i)
    flat_name += (i ? ", " : "") + input_placeholders_[i]->name;
  flat_name += ")";
  std::string flat_err;
  // TF's flat call: positional arguments first, then the remaining inputs by keyword; missing
  // inputs are reported before unexpected keywords.
  std::vector<Value> all_args = args;
  Kwargs rest = kwargs;
  const size_t n = input_placeholders_.size();
  if (args.size() > n) {
    flat_err = flat_name + " takes " + std::to_string(n) + " positional arguments, got " +
               std::to_string(args.size()) + ".";
  }
  for (size_t i = args.size(); flat_err.empty() && i < n; ++i) {
    const std::string& key = input_placeholders_[i]->name;
    auto it = std::find_if(rest.begin(), rest.end(), [&](auto& kv) { return kv.first == key; });
    if (it != rest.end()) {
      all_args.push_back(it->second);
      rest.erase(it);
      continue;
    }
    std::set<std::string> specified;
    for (size_t j = 0; j < all_args.size(); ++j) specified.insert(input_placeholders_[j]->name);
    for (auto& kv : rest) specified.insert(kv.first);
    std::set<std::string> unspecified;  // sorted, as TF sorts them
    for (Node* ph : input_placeholders_)
      if (!specified.count(ph->name)) unspecified.insert(ph->name);
    std::string missing;
    for (auto& m : unspecified) missing += (missing.empty() ? "" : ", ") + m;
    flat_err = flat_name + " missing required arguments: " + missing + ".";
  }
  if (flat_err.empty() && !rest.empty()) {
    std::vector<std::string> keys;
    for (auto& kv : rest) keys.push_back(kv.first);
    std::sort(keys.begin(), keys.end());
    for (size_t j = 0; j < args.size() && flat_err.empty(); ++j) {
      for (auto& k : keys)
        if (k == input_placeholders_[j]->name)
          flat_err = flat_name + " got two values for '" + k + "'.";
    }
    if (flat_err.empty()) {
      std::string names;
      for (size_t i = 0; i < keys.size(); ++i) names += (i ? ", " : "") + keys[i];
      flat_err = flat_name + " got unexpected keyword arguments: " + names + ".";
    }
  }
  const std::vector<Value>& args_in = all_args;
  if (flat_err.empty()) {
    std::vector<Tensor> flat;
    for (size_t i = 0; i < args_in.size(); ++i) {
      if (args_in[i].kind() != Value::Kind::kTensor) {
        flat_err = flat_name + ": expected argument #" + std::to_string(i) +
                   "(zero-based) to be a Tensor; got " +
                   (args_in[i].kind() == Value::Kind::kStr   ? "str"
                    : args_in[i].kind() == Value::Kind::kInt ? "int"
                                                             : "object") +
                   " (" + args_in[i].str() + ").";
        break;
      }
      flat.push_back(args_in[i].as_tensor());
    }
    if (flat_err.empty()) {
      for (size_t i = 0; i < flat.size(); ++i) {
        DType want = input_placeholders_[i]->output_dtypes[0];
        if (flat[i].dtype() != want) {
          invalid_argument("cannot compute " + name_ + " as input #" + std::to_string(i) +
                           "(zero-based) was expected to be a " +
                           std::string(dtype_tf_string(want)) + " tensor but is a " +
                           std::string(dtype_tf_string(flat[i].dtype())) + " tensor [Op:" + name_ +
                           "]");
        }
      }
      return call_flat(flat);
    }
  }
  type_error(structured_err + "\nFallback to flat signature also failed due to: " + flat_err);
}

}  // namespace tfs
