// The polymorphic Function: bind, key, look up, trace, run; and the ledger of why.
#include "tfscope/function.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <set>
#include <nlohmann/json.hpp>

#include "binding.h"
#include "tfscope/passes.h"
#include "tfscope/variable.h"

namespace tfs {

namespace {

constexpr int kVariableCreation = 0;
constexpr int kNoVariableCreation = 1;

thread_local int t_trace_depth = 0;

std::mutex g_warn_mu;
std::function<void(const std::string&)>& warning_sink() {
  static std::function<void(const std::string&)> s;
  return s;
}

void emit_warning(const std::string& msg) {
  std::function<void(const std::string&)> sink;
  {
    std::lock_guard<std::mutex> lock(g_warn_mu);
    sink = warning_sink();
  }
  if (sink) sink(msg);
  else std::fprintf(stderr, "WARNING:tensorflow:%s\n", msg.c_str());
}

// TF's _FrequentTracingDetector: per detector key, a window of call groups.
struct Detector {
  std::deque<int> calls_per_tracing;
  int call_count = 0;
  int warnings = 0;
};
std::mutex g_detector_mu;
std::map<std::string, Detector>& detectors() {
  static std::map<std::string, Detector> d;
  return d;
}

double micros_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

const char* param_kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::kPositionalOnly: return "POSITIONAL_ONLY";
    case ParamKind::kPositionalOrKeyword: return "POSITIONAL_OR_KEYWORD";
    case ParamKind::kVarPositional: return "VAR_POSITIONAL";
    case ParamKind::kKeywordOnly: return "KEYWORD_ONLY";
    case ParamKind::kVarKeyword: return "VAR_KEYWORD";
  }
  return "?";
}

void set_warning_sink(std::function<void(const std::string&)> sink) {
  std::lock_guard<std::mutex> lock(g_warn_mu);
  warning_sink() = std::move(sink);
}

bool inside_trace() { return t_trace_depth > 0; }

Tensor evaluate_lifted(const Tensor& t) {
  if (!t.is_symbolic()) return t;
  const Graph& g = *t.graph();
  // Refuse initializers that depend on a function argument.
  std::vector<const Node*> stack{t.node()};
  std::set<const Node*> seen;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->op() == "Placeholder") {
      value_error("[function] a variable's initial value depends on the function argument " +
                  n->name + "; create the variable from a value computed outside the function");
    }
    for (auto& in : n->inputs) stack.push_back(in.node);
  }
  Executor ex(t.graph(), {}, {Output{t.node(), t.index()}}, {});
  (void)g;
  return ex.run({}).at(0);
}

// ---- FunctionType ----

bool FunctionType::operator==(const FunctionType& o) const {
  if (params.size() != o.params.size()) return false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name != o.params[i].name || params[i].kind != o.params[i].kind) return false;
    if (!(params[i].type == o.params[i].type)) return false;
  }
  return true;
}

size_t FunctionType::hash() const {
  size_t h = params.size();
  for (auto& p : params) h = h * 1000003u ^ p.type.hash() ^ std::hash<std::string>()(p.name);
  return h;
}

bool FunctionType::is_supertype_of(const FunctionType& req) const {
  if (params.size() != req.params.size()) return false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name != req.params[i].name || params[i].kind != req.params[i].kind) return false;
    if (!req.params[i].type.is_subtype_of(params[i].type)) return false;
  }
  return true;
}

std::optional<FunctionType> FunctionType::most_specific_common_subtype(const FunctionType& o) const {
  // Named as TF names it: the common *supertype* of the parameter types (contravariance).
  if (params.size() != o.params.size()) return std::nullopt;
  FunctionType r;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name != o.params[i].name || params[i].kind != o.params[i].kind) return std::nullopt;
    auto s = params[i].type.most_specific_common_supertype(o.params[i].type);
    if (!s) return std::nullopt;
    r.params.push_back(TypedParameter{params[i].name, params[i].kind, *s});
  }
  return r;
}

std::string FunctionType::signature_text() const {
  std::string s = "(";
  bool kw_marker = false;
  for (size_t i = 0; i < params.size(); ++i) {
    if (i) s += ", ";
    if (params[i].kind == ParamKind::kKeywordOnly && !kw_marker) {
      s += "*, ";
      kw_marker = true;
    }
    s += params[i].name + ": " + params[i].type.repr();
    if (params[i].shows_default) s += " = <captured_default_value>";
    bool last_pos_only = params[i].kind == ParamKind::kPositionalOnly &&
                         (i + 1 == params.size() || params[i + 1].kind != ParamKind::kPositionalOnly);
    if (last_pos_only) s += ", /";
  }
  return s + ")";
}

// ---- Function ----

struct Function::Bound {
  detail::BoundArguments args;
  std::vector<Value> raw_args;
  Kwargs raw_kwargs;
};

namespace {
// repr(type(v)) for a host value, as TF's messages print it: "<class 'int'>".
std::string python_class_repr(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNone: return "<class 'NoneType'>";
    case Value::Kind::kBool: return "<class 'bool'>";
    case Value::Kind::kInt: return "<class 'int'>";
    case Value::Kind::kFloat: return "<class 'float'>";
    case Value::Kind::kStr: return "<class 'str'>";
    case Value::Kind::kDict: return "<class 'dict'>";
    case Value::Kind::kTensor: return "<class 'tensorflow.python.framework.ops.EagerTensor'>";
    default: return "<class 'object'>";
  }
}
}  // namespace

Function::Function(std::string name, std::vector<Parameter> params, Body body,
                   FunctionOptions options)
    : name_(std::move(name)), params_(std::move(params)), body_(std::move(body)),
      options_(std::move(options)) {
  if (options_.detector_key.empty()) options_.detector_key = name_;
  if (options_.display_name.empty()) options_.display_name = "<function " + name_ + ">";
  if (!options_.input_signature) return;
  // Validate the signature now, as tf.function does at decoration.
  const auto& sig = *options_.input_signature;
  std::function<void(const Value&)> check_leaf = [&](const Value& v) {
    if (v.kind() == Value::Kind::kList || v.kind() == Value::Kind::kTuple) {
      for (auto& x : v.items()) check_leaf(x);
      return;
    }
    if (v.kind() == Value::Kind::kDict) {
      for (auto& kv : v.dict_items()) check_leaf(kv.second);
      return;
    }
    if (v.kind() != Value::Kind::kTensorSpec) {
      type_error("input_signature must be a possibly nested sequence of TensorSpec objects, got "
                 "invalid args [" + v.repr() + "] with types [" + python_class_repr(v) + "].");
    }
  };
  for (auto& v : sig) check_leaf(v);
  size_t positional = 0;
  for (auto& p : params_) {
    if (p.kind == ParamKind::kPositionalOnly || p.kind == ParamKind::kPositionalOrKeyword) positional++;
  }
  if (sig.size() > positional) {
    type_error("input_signature contains " + std::to_string(sig.size() - positional) +
               " extra type constraints.");
  }
  TraceTypeBuilder tb;
  size_t si = 0;
  for (auto& p : params_) {
    if (p.kind == ParamKind::kVarKeyword || p.kind == ParamKind::kVarPositional) continue;
    if (si < sig.size() && p.kind != ParamKind::kKeywordOnly) {
      signature_params_.push_back(TypedParameter{p.name, p.kind, tb.from_value(sig[si++])});
      continue;
    }
    if (p.kind == ParamKind::kKeywordOnly && !p.default_value) {
      type_error("Since input_signature is defined, keyword-only parameter `" + p.name +
                 "` must have a default value");
    }
    if (!p.default_value) type_error("input_signature missing type constraint for " + p.name);
    signature_params_.push_back(TypedParameter{p.name, p.kind, tb.from_value(*p.default_value)});
  }
}

Function::Bound Function::bind(const std::vector<Value>& args, const Kwargs& kwargs) const {
  Bound b;
  b.raw_args = args;
  b.raw_kwargs = kwargs;
  auto fail = [&](const std::string& inner) {
    std::string sig;
    if (options_.input_signature) {
      // TF's binding error marks the parameters filled from defaults.
      FunctionType shown{signature_params_};
      for (auto& tp : shown.params)
        for (auto& p : params_)
          if (p.name == tp.name && p.default_value) tp.shows_default = true;
      sig = shown.signature_text();
    } else {
      sig = detail::plain_signature_text(params_);
    }
    type_error("Binding inputs to tf.function failed due to `" + inner + "`. Received args: " +
               detail::args_repr(args) + " and kwargs: " + detail::kwargs_repr(kwargs) +
               " for signature: " + sig + ".");
  };
  try {
    b.args = detail::bind_arguments(params_, args, kwargs);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTypeError) throw;
    fail(e.what());
  }
  if (!options_.input_signature) return b;
  // Cast each value to its spec: tensors must fit, host values convert to the spec's dtype.
  std::function<Value(const Value&, const TraceType&)> cast = [&](const Value& v,
                                                                  const TraceType& t) -> Value {
    if (t.kind() == TraceType::Kind::kTensorSpec) {
      Tensor x;
      if (v.kind() == Value::Kind::kTensor) {
        x = v.as_tensor();
      } else if (v.kind() == Value::Kind::kTensorSpec) {
        TensorSpec s = v.as_spec();
        if (!s.is_subtype_of(t.spec()) && !(TensorSpec(s.shape, s.dtype).is_subtype_of(t.spec())))
          fail("Can not cast " + s.repr() + " to " + t.spec().repr());
        return v;
      } else {
        try {
          x = convert_to_tensor(v, t.spec().dtype);
        } catch (const Error& e) {
          fail(e.what());
        }
      }
      TensorSpec got = TensorSpec::from_tensor(x);
      if (!got.is_subtype_of(TensorSpec(t.spec().shape, t.spec().dtype))) {
        // TF names the argument's spec after the signature's.
        if (t.spec().has_name) got = TensorSpec(got.shape, got.dtype, t.spec().name);
        fail("Can not cast " + got.repr() + " to " + t.spec().repr());
      }
      return x;
    }
    if (t.kind() == TraceType::Kind::kList || t.kind() == TraceType::Kind::kTuple) {
      bool want_list = t.kind() == TraceType::Kind::kList;
      if ((want_list && v.kind() == Value::Kind::kTuple) ||
          (!want_list && v.kind() == Value::Kind::kList)) {
        fail("Can not cast " + v.repr() + " to " + (want_list ? "list" : "tuple") + " type.");
      }
      if ((v.kind() != Value::Kind::kList && v.kind() != Value::Kind::kTuple) ||
          v.items().size() != t.children().size()) {
        fail("Can not cast " + v.repr() + " to " + t.repr());
      }
      ValueList items;
      for (size_t i = 0; i < t.children().size(); ++i) items.push_back(cast(v.items()[i], t.children()[i]));
      return t.kind() == TraceType::Kind::kList ? Value::list(items) : Value::tuple(items);
    }
    if (t.kind() == TraceType::Kind::kDict) {
      bool same_keys = v.kind() == Value::Kind::kDict && v.dict_items().size() == t.keys().size();
      if (same_keys) {
        for (auto& k : t.keys()) {
          bool found = false;
          for (auto& kv : v.dict_items()) found = found || kv.first == k;
          same_keys = same_keys && found;
        }
      }
      if (!same_keys) fail(v.repr() + " has different keys with the TraceType " + t.repr() + ".");
      ValueItems items;
      for (size_t i = 0; i < t.keys().size(); ++i) {
        for (auto& kv : v.dict_items())
          if (kv.first == t.keys()[i]) items.emplace_back(kv.first, cast(kv.second, t.children()[i]));
      }
      return Value::dict(items);
    }
    TraceTypeBuilder tb;
    if (!(tb.from_value(v) == t)) fail("Can not cast " + v.repr() + " to " + t.repr());
    return v;
  };
  for (size_t i = 0; i < b.args.values.size() && i < signature_params_.size(); ++i) {
    b.args.values[i] = cast(b.args.values[i], signature_params_[i].type);
  }
  return b;
}

FunctionType Function::request_type(const Bound& b) const {
  if (options_.input_signature) return FunctionType{signature_params_};
  FunctionType t;
  TraceTypeBuilder tb;
  for (size_t i = 0; i < b.args.values.size(); ++i) {
    t.params.push_back(TypedParameter{b.args.names[i], b.args.kinds[i], tb.from_value(b.args.values[i])});
  }
  return t;
}

std::shared_ptr<ConcreteFunction> Function::lookup(const FunctionType& t, int scope) {
  size_t h = t.hash();
  auto range = exact_.equal_range(h);
  for (auto it = range.first; it != range.second; ++it) {
    Entry& e = cache_[it->second];
    if (e.scope == scope && e.type == t) {
      e.last_used = ++clock_;
      return e.cf;
    }
  }
  // The most specific cached supertype; ties go to the earliest inserted.
  Entry* best = nullptr;
  for (auto& e : cache_) {
    if (e.scope != scope || !e.type.is_supertype_of(t)) continue;
    if (!best || best->type.is_supertype_of(e.type)) {
      if (best && e.type == best->type) continue;
      best = &e;
    }
  }
  if (best) {
    best->last_used = ++clock_;
    return best->cf;
  }
  return nullptr;
}

namespace {

std::string diff_types(const std::string& path, const TraceType& a, const TraceType& b) {
  using K = TraceType::Kind;
  if (a.kind() == K::kTensorSpec && b.kind() == K::kTensorSpec) {
    if (a.spec().dtype != b.spec().dtype) {
      return path + ": dtype " + std::string(dtype_name(a.spec().dtype)) + " -> " +
             std::string(dtype_name(b.spec().dtype));
    }
    if (!(a.spec().shape == b.spec().shape)) {
      return path + ": shape " + a.spec().shape.str() + " -> " + b.spec().shape.str();
    }
    return path + ": " + a.repr() + " -> " + b.repr();
  }
  if (a.kind() == b.kind() && (a.kind() == K::kList || a.kind() == K::kTuple) &&
      a.children().size() == b.children().size()) {
    std::string out;
    for (size_t i = 0; i < a.children().size(); ++i) {
      if (a.children()[i] == b.children()[i]) continue;
      out += (out.empty() ? "" : "; ") + diff_types(path + "[" + std::to_string(i) + "]",
                                                    a.children()[i], b.children()[i]);
    }
    return out;
  }
  if (a.kind() == K::kWeakref && b.kind() == K::kWeakref) {
    return path + ": a different object (" + b.object()->repr() + ", matched by identity)";
  }
  if (a.kind() == K::kVariableSpec && b.kind() == K::kVariableSpec) {
    if (a.alias_id() != b.alias_id()) {
      return path + ": variable aliasing changed (alias_id " + std::to_string(a.alias_id()) +
             " -> " + std::to_string(b.alias_id()) + ")";
    }
    return path + ": " + a.repr() + " -> " + b.repr();
  }
  return path + ": " + a.summary() + " -> " + b.summary();
}

}  // namespace

std::string Function::explain(const FunctionType& req, int scope) const {
  if (cache_.empty()) return "first call";
  const Entry* closest = nullptr;
  int best_score = -1;
  for (auto& e : cache_) {
    if (e.scope != scope || e.type.params.size() != req.params.size()) continue;
    int score = 0;
    for (size_t i = 0; i < req.params.size(); ++i) {
      if (e.type.params[i].name == req.params[i].name && e.type.params[i].type == req.params[i].type) score++;
    }
    if (score >= best_score) {
      best_score = score;
      closest = &e;
    }
  }
  if (!closest) {
    bool same_scope = false;
    for (auto& e : cache_) same_scope = same_scope || e.scope == scope;
    if (!same_scope && scope == kNoVariableCreation) {
      return "the first trace created variables, so TF traces again with variable creation off";
    }
    return "no cached trace with the same parameters (" + req.signature_text() + ")";
  }
  std::string out;
  for (size_t i = 0; i < req.params.size(); ++i) {
    const auto &a = closest->type.params[i], &b = req.params[i];
    if (a.name != b.name) {
      out += (out.empty() ? "" : "; ") + std::string("parameter ") + a.name + " -> " + b.name;
      continue;
    }
    if (a.type == b.type) continue;
    out += (out.empty() ? "" : "; ") + diff_types(b.name, a.type, b.type);
  }
  if (out.empty()) out = "no cached trace accepts " + req.signature_text();
  return out;
}

namespace {

// Builds what the body receives from a TraceType: placeholders for tensors and variables, the
// traced literal for literals. Records placeholders with a sort key for the flat call order.
struct PlaceholderBuilder {
  FuncGraphBuilder& builder;
  struct Leaf {
    std::vector<std::string> sort_path;
    Node* node;
  };
  std::vector<Leaf> leaves;

  Value build(const TraceType& t, const Value& actual, const std::string& name,
              std::vector<std::string> path, Value* spec_out, const std::string& spec_name) {
    using K = TraceType::Kind;
    switch (t.kind()) {
      case K::kTensorSpec: {
        // A named TensorSpec in an input_signature names the placeholder and the spec.
        const std::string& pname = t.spec().has_name ? t.spec().name : name;
        Tensor ph = builder.add_placeholder(pname, t.spec().dtype, t.spec().shape);
        leaves.push_back({path, ph.node()});
        *spec_out = Value(
            TensorSpec(t.spec().shape, t.spec().dtype, t.spec().has_name ? t.spec().name : spec_name));
        return Value(ph);
      }
      case K::kVariableSpec: {
        Tensor ph = builder.add_placeholder(name, DType::kResource, Shape{});
        leaves.push_back({path, ph.node()});
        builder.bind_argument_resource(actual.as_variable(), ph);
        *spec_out = Value(std::shared_ptr<Object>(std::make_shared<VariableSpecValue>(
            t.spec().shape, t.spec().dtype, t.trainable(), t.alias_id())));
        return actual;
      }
      case K::kList:
      case K::kTuple:
      case K::kNamedTuple: {
        ValueList items, specs;
        const auto& act = actual.kind() == Value::Kind::kList || actual.kind() == Value::Kind::kTuple ||
                                  actual.kind() == Value::Kind::kNamedTuple
                              ? actual.items()
                              : ValueList{};
        for (size_t i = 0; i < t.children().size(); ++i) {
          auto p = path;
          char buf[24];
          std::snprintf(buf, sizeof buf, "%08zu", i);
          p.push_back(buf);
          Value s;
          items.push_back(build(t.children()[i], i < act.size() ? act[i] : Value(), name, p, &s,
                                spec_name + "_" + std::to_string(i)));
          specs.push_back(s);
        }
        if (t.kind() == K::kList) {
          *spec_out = Value::list(specs);
          return Value::list(items);
        }
        if (t.kind() == K::kTuple) {
          *spec_out = Value::tuple(specs);
          return Value::tuple(items);
        }
        *spec_out = Value::named_tuple(t.type_name(), t.fields(), specs);
        return Value::named_tuple(t.type_name(), t.fields(), items);
      }
      case K::kDict: {
        ValueItems items, specs;
        for (size_t i = 0; i < t.keys().size(); ++i) {
          auto p = path;
          p.push_back(t.keys()[i].repr());
          const Value* a = actual.kind() == Value::Kind::kDict ? actual.dict_get(t.keys()[i]) : nullptr;
          Value s;
          std::string key_name = t.keys()[i].kind() == Value::Kind::kStr ? t.keys()[i].as_str() : t.keys()[i].repr();
          items.emplace_back(t.keys()[i], build(t.children()[i], a ? *a : Value(), name, p, &s,
                                                spec_name + "_" + key_name));
          specs.emplace_back(t.keys()[i], s);
        }
        *spec_out = Value::dict(specs);
        return Value::dict(items);
      }
      case K::kWeakref:
        *spec_out = Value(t.object());
        return Value(t.object());
      case K::kLiteral:
        *spec_out = t.literal_value();
        return t.literal_value();
    }
    return Value();
  }
};

// Flatten a returned nest: tensors (and host numbers, converted) in order, dict keys sorted.
void flatten_outputs(const Value& v, std::vector<Tensor>& flat, Value* tmpl, const std::string& fn) {
  switch (v.kind()) {
    case Value::Kind::kNone:
      *tmpl = Value();
      return;
    case Value::Kind::kTensor:
      flat.push_back(v.as_tensor());
      *tmpl = v;
      return;
    case Value::Kind::kBool:
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
    case Value::Kind::kStr: {
      Tensor t = convert_to_tensor(v);
      flat.push_back(t);
      *tmpl = Value(t);
      return;
    }
    case Value::Kind::kVariable: {
      Tensor t = convert_to_tensor(v);
      flat.push_back(t);
      *tmpl = Value(t);
      return;
    }
    case Value::Kind::kList:
    case Value::Kind::kTuple:
    case Value::Kind::kNamedTuple: {
      ValueList items;
      for (auto& x : v.items()) {
        Value t;
        flatten_outputs(x, flat, &t, fn);
        items.push_back(t);
      }
      if (v.kind() == Value::Kind::kList) *tmpl = Value::list(items);
      else if (v.kind() == Value::Kind::kTuple) *tmpl = Value::tuple(items);
      else *tmpl = Value::named_tuple(v.named_tuple().type_name, v.named_tuple().fields, items);
      return;
    }
    case Value::Kind::kDict: {
      std::vector<std::pair<Value, Value>> items = v.dict_items();
      std::vector<size_t> order(items.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return items[a].first.repr() < items[b].first.repr();
      });
      ValueItems out(items.size());
      for (size_t i : order) {
        Value t;
        flatten_outputs(items[i].second, flat, &t, fn);
        out[i] = {items[i].first, t};
      }
      *tmpl = Value::dict(out);
      return;
    }
    default:
      type_error("To be compatible with tf.function, Python functions must return zero or more "
                 "Tensors or ExtensionTypes or None values; in compilation of " + fn +
                 ", found return value of type " + v.repr() +
                 ", which is not a Tensor or ExtensionType.");
  }
}

// Rebuild a nest, replacing symbolic leaves with results in flatten order.
Value rebuild(const Value& tmpl, const std::vector<Tensor>& results, size_t& k) {
  switch (tmpl.kind()) {
    case Value::Kind::kTensor: return Value(results[k++]);
    case Value::Kind::kList:
    case Value::Kind::kTuple:
    case Value::Kind::kNamedTuple: {
      ValueList items;
      for (auto& x : tmpl.items()) items.push_back(rebuild(x, results, k));
      if (tmpl.kind() == Value::Kind::kList) return Value::list(items);
      if (tmpl.kind() == Value::Kind::kTuple) return Value::tuple(items);
      return Value::named_tuple(tmpl.named_tuple().type_name, tmpl.named_tuple().fields, items);
    }
    case Value::Kind::kDict: {
      const auto& items = tmpl.dict_items();
      std::vector<size_t> order(items.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return items[a].first.repr() < items[b].first.repr();
      });
      ValueItems out(items.size());
      for (size_t i : order) out[i] = {items[i].first, rebuild(items[i].second, results, k)};
      return Value::dict(out);
    }
    default: return tmpl;
  }
}

}  // namespace

std::shared_ptr<ConcreteFunction> Function::trace(const FunctionType& target, const Bound& b,
                                                  int scope, const std::string& reason,
                                                  LedgerEntry& entry) {
  if (fail_on_retrace_) {
    throw Error(ErrorKind::kValueError,
                "[function] " + name_ + ": retrace not allowed (fail-on-retrace is on): " + reason);
  }
  auto t0 = std::chrono::steady_clock::now();
  auto cf = std::shared_ptr<ConcreteFunction>(new ConcreteFunction());
  cf->fn_name_ = name_;
  cf->name_ = "__inference_" + name_ + "_" + std::to_string(next_uid());
  cf->type_ = target;
  cf->params_ = params_;
  cf->has_input_signature_ = options_.input_signature.has_value();
  FuncGraphBuilder builder(name_);
  detail::VariableCreationPolicy policy;
  policy.allowed = scope == kVariableCreation;
  std::vector<Value> body_args;
  Kwargs body_kwargs;
  ValueList sig_pos;
  ValueItems sig_kw;
  Value result;
  std::vector<Tensor> flat_out;
  Value out_template;
  {
    BuildScope bs(builder);
    detail::push_variable_policy(&policy);
    t_trace_depth++;
    struct Restore {
      ~Restore() {
        t_trace_depth--;
        detail::pop_variable_policy();
      }
    } restore;
    PlaceholderBuilder pb{builder, {}};
    for (size_t i = 0; i < target.params.size(); ++i) {
      const auto& p = target.params[i];
      Value spec;
      char buf[24];
      std::snprintf(buf, sizeof buf, "%08zu", i);
      Value v = pb.build(p.type, b.args.values[i], p.name, {buf}, &spec, p.name);
      if (p.kind == ParamKind::kKeywordOnly) {
        body_kwargs.emplace_back(p.name, v);
        sig_kw.emplace_back(Value(p.name), spec);
      } else {
        body_args.push_back(v);
        sig_pos.push_back(spec);
      }
    }
    std::stable_sort(pb.leaves.begin(), pb.leaves.end(),
                     [](auto& x, auto& y) { return x.sort_path < y.sort_path; });
    for (auto& l : pb.leaves) cf->input_placeholders_.push_back(l.node);
    result = body_(body_args, body_kwargs);
    flatten_outputs(result, flat_out, &out_template, options_.display_name);
    auto outs = builder.finalize_outputs(flat_out);
    auto gf = std::make_shared<GraphFunction>();
    gf->name = cf->name_;
    gf->graph = builder.graph();
    gf->outputs = outs;
    gf->control_outputs = builder.stateful_ops();
    gf->is_stateful = builder.has_stateful_ops();
    cf->graph_fn_ = gf;
  }
  if (policy.created > 0) created_variables_ = true;
  cf->captures_ = builder.captures();
  auto& gf = *cf->graph_fn_;
  gf.args = cf->input_placeholders_;
  for (auto& c : cf->captures_)
    if (c.kind != "const") gf.args.push_back(c.placeholder);
  for (Node* a : gf.args) gf.arg_names.push_back(a->name);
  if (options_.optimize_graph) optimize(gf);
  // Output tensors in their nest: symbolic Identity outputs.
  std::vector<Tensor> id_outs;
  for (auto& o : gf.outputs) id_outs.push_back(gf.graph->tensor(o.node, o.index));
  size_t k = 0;
  cf->output_template_ = rebuild(out_template, id_outs, k);
  cf->structured_outputs_ = cf->output_template_;
  cf->structured_input_signature_ = Value::tuple({Value::tuple(sig_pos), Value::dict(sig_kw)});
  cf->executor_ = Executor::for_function(gf, nullptr);
  entry.trace_us = micros_since(t0);

  // Insert, evicting the least recently used entry when the cache is bounded.
  if (options_.max_cache_entries > 0 && cache_.size() >= options_.max_cache_entries) {
    auto victim = std::min_element(cache_.begin(), cache_.end(),
                                   [](auto& a, auto& b) { return a.last_used < b.last_used; });
    entry.evicted.push_back(victim->cf->name() + " " + victim->type.signature_text());
    cache_.erase(victim);
    exact_.clear();
    for (size_t i = 0; i < cache_.size(); ++i) exact_.emplace(cache_[i].type.hash(), i);
  }
  cache_.push_back(Entry{target, scope, cf, ++clock_});
  exact_.emplace(target.hash(), cache_.size() - 1);
  return cf;
}

std::shared_ptr<ConcreteFunction> Function::maybe_define(const Bound& b, int scope,
                                                         LedgerEntry& entry, bool* traced,
                                                         size_t* request_hash) {
  FunctionType req = request_type(b);
  if (request_hash) *request_hash = req.hash();
  *traced = false;
  if (auto cf = lookup(req, scope)) return cf;
  std::string reason = explain(req, scope);
  FunctionType target = req;
  if (options_.reduce_retracing && !options_.input_signature) {
    for (auto& e : cache_) {
      if (e.scope != scope) continue;
      if (auto g = target.most_specific_common_subtype(e.type)) target = *g;
    }
    if (!(target == req)) reason += " (relaxed to " + target.signature_text() + ")";
  }
  entry.reason = reason;
  *traced = true;
  return trace(target, b, scope, reason, entry);
}

std::vector<Tensor> Function::flatten_call_args(const Bound& b, const ConcreteFunction& cf) const {
  // Fast path: no nested arguments, so the flat order is the parameter order.
  {
    using K = TraceType::Kind;
    bool flat_only = true;
    for (auto& p : cf.type_.params) {
      K k = p.type.kind();
      if (k == K::kList || k == K::kTuple || k == K::kNamedTuple || k == K::kDict) flat_only = false;
    }
    if (flat_only) {
      std::vector<Tensor> flat;
      flat.reserve(cf.type_.params.size());
      for (size_t i = 0; i < cf.type_.params.size(); ++i) {
        const TraceType& t = cf.type_.params[i].type;
        const Value& v = b.args.values[i];
        if (t.kind() == K::kTensorSpec) {
          flat.push_back(v.kind() == Value::Kind::kTensor ? v.as_tensor()
                                                          : convert_to_tensor(v, t.spec().dtype));
        } else if (t.kind() == K::kVariableSpec) {
          flat.push_back(Tensor::resource(v.as_variable()));
        }
      }
      return flat;
    }
  }
  struct Leaf {
    std::vector<std::string> path;
    Tensor t;
  };
  std::vector<Leaf> leaves;
  std::function<void(const TraceType&, const Value&, std::vector<std::string>)> walk =
      [&](const TraceType& t, const Value& v, std::vector<std::string> path) {
        using K = TraceType::Kind;
        switch (t.kind()) {
          case K::kTensorSpec:
            if (v.kind() == Value::Kind::kTensor) leaves.push_back({path, v.as_tensor()});
            else leaves.push_back({path, convert_to_tensor(v, t.spec().dtype)});
            return;
          case K::kVariableSpec:
            leaves.push_back({path, Tensor::resource(v.as_variable())});
            return;
          case K::kList:
          case K::kTuple:
          case K::kNamedTuple:
            for (size_t i = 0; i < t.children().size(); ++i) {
              auto p = path;
              char buf[24];
              std::snprintf(buf, sizeof buf, "%08zu", i);
              p.push_back(buf);
              walk(t.children()[i], v.items()[i], p);
            }
            return;
          case K::kDict:
            for (size_t i = 0; i < t.keys().size(); ++i) {
              auto p = path;
              p.push_back(t.keys()[i].repr());
              walk(t.children()[i], *v.dict_get(t.keys()[i]), p);
            }
            return;
          default: return;
        }
      };
  for (size_t i = 0; i < cf.type_.params.size(); ++i) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "%08zu", i);
    walk(cf.type_.params[i].type, b.args.values[i], {buf});
  }
  std::stable_sort(leaves.begin(), leaves.end(), [](auto& x, auto& y) { return x.path < y.path; });
  std::vector<Tensor> flat;
  flat.reserve(leaves.size());
  for (auto& l : leaves) flat.push_back(l.t);
  return flat;
}

Value Function::run(const ConcreteFunction& cf, const Bound& b, LedgerEntry& entry) const {
  auto t0 = std::chrono::steady_clock::now();
  Value out = cf.call_flat(flatten_call_args(b, cf));
  entry.run_us = micros_since(t0);
  return out;
}

void Function::record_detector(bool traced) {
  std::string warning;
  {
    std::lock_guard<std::mutex> lock(g_detector_mu);
    // Detectors are never erased, so the entry found once stays valid for this Function.
    if (!detector_) detector_ = &detectors()[options_.detector_key];
    Detector& d = *static_cast<Detector*>(detector_);
    if (traced) {
      d.call_count += 1;
      d.calls_per_tracing.push_back(1);
      while (!d.calls_per_tracing.empty() && d.call_count - d.calls_per_tracing.front() > 10) {
        d.call_count -= d.calls_per_tracing.front();
        d.calls_per_tracing.pop_front();
      }
      if (d.warnings < 2 && d.calls_per_tracing.size() >= 5) {
        d.warnings++;
        warning = std::to_string(d.calls_per_tracing.size()) + " out of the last " +
                  std::to_string(d.call_count) + " calls to " + options_.display_name +
                  " triggered tf.function retracing. Tracing is expensive and the excessive "
                  "number of tracings could be due to (1) creating @tf.function repeatedly in a "
                  "loop, (2) passing tensors with different shapes, (3) passing Python objects "
                  "instead of tensors. For (1), please define your @tf.function outside of the "
                  "loop. For (2), @tf.function has reduce_retracing=True option that can avoid "
                  "unnecessary retracing. For (3), please refer to "
                  "https://www.tensorflow.org/guide/function#controlling_retracing and "
                  "https://www.tensorflow.org/api_docs/python/tf/function for  more details.";
      }
    } else {
      if (d.calls_per_tracing.empty()) d.calls_per_tracing.push_back(0);
      d.calls_per_tracing.back() += 1;
      d.call_count += 1;
    }
  }
  if (!warning.empty()) emit_warning(warning);
}

namespace {
std::string args_summary(const detail::BoundArguments& a) {
  std::string s;
  for (size_t i = 0; i < a.values.size(); ++i) {
    const Value& v = a.values[i];
    std::string d;
    if (v.kind() == Value::Kind::kTensor) {
      d = std::string(dtype_name(v.as_tensor().dtype())) + " " + v.as_tensor().shape().str();
    } else if (v.kind() == Value::Kind::kVariable) {
      d = "variable " + v.as_variable()->name();
    } else if (v.kind() == Value::Kind::kTensorSpec) {
      d = v.as_spec().repr();
    } else {
      d = v.repr();
      if (d.size() > 40) d = d.substr(0, 37) + "...";
    }
    s += (i ? ", " : "") + a.names[i] + "=" + d;
  }
  return s;
}
}  // namespace

bool Function::continues_last_hit(const LedgerEntry& e, const ConcreteFunction& cf) const {
  if (ledger_.empty()) return false;
  const LedgerEntry& last = ledger_.back();
  return !last.traced && !last.failed && !last.concrete_only && last.request_hash != 0 &&
         last.request_hash == e.request_hash && last.concrete_function == cf.name() &&
         last.call + last.count == e.call && last.evicted.empty();
}

Value Function::call(const std::vector<Value>& args, const Kwargs& kwargs) {
  bool eager = !inside_trace() && executing_eagerly();
  LedgerEntry entry;
  std::shared_ptr<ConcreteFunction> cf;
  Bound b;
  bool traced = false, traced2 = false;
  bool later_creation = false;
  {
    std::lock_guard<std::recursive_mutex> lock(mu_);
    entry.call = ++num_calls_;
    try {
      b = bind(args, kwargs);
      if (created_variables_) {
        cf = maybe_define(b, kNoVariableCreation, entry, &traced, &entry.request_hash);
      } else if (initialized_) {
        cf = maybe_define(b, kVariableCreation, entry, &traced, &entry.request_hash);
        later_creation = created_variables_;
      } else {
        initialized_ = true;
        cf = maybe_define(b, kVariableCreation, entry, &traced);
        if (created_variables_) {
          // TF traces a second time when the first trace created variables.
          LedgerEntry second;
          std::string first_reason = entry.reason;
          cf = maybe_define(b, kNoVariableCreation, second, &traced2);
          entry.reason = first_reason + "; then traced again without variable creation";
          entry.trace_us += second.trace_us;
        }
      }
    } catch (const Error& e) {
      entry.failed = true;
      entry.error = e.what();
      if (!b.args.values.empty()) entry.args = args_summary(b.args);
      ledger_.push_back(entry);
      throw;
    }
    entry.traced = traced || traced2;
    // A hit that continues the last entry's run is folded into it after running (below); any
    // other call gets its own entry, with its argument summary.
    if (entry.traced || !continues_last_hit(entry, *cf)) {
      entry.args = args_summary(b.args);
      entry.concrete_function = cf->name();
      entry.request_hash = entry.traced ? 0 : entry.request_hash;
    }
  }
  if (eager) record_detector(entry.traced);
  Value out;
  try {
    out = run(*cf, b, entry);
  } catch (const Error& e) {
    entry.failed = true;
    entry.error = e.what();
    std::lock_guard<std::recursive_mutex> lock(mu_);
    ledger_.push_back(entry);
    throw;
  }
  {
    std::lock_guard<std::recursive_mutex> lock(mu_);
    if (!entry.traced && continues_last_hit(entry, *cf)) {
      ledger_.back().count += 1;
      ledger_.back().run_us += entry.run_us;
    } else {
      if (entry.args.empty() && !b.args.values.empty()) entry.args = args_summary(b.args);
      entry.concrete_function = cf->name();
      ledger_.push_back(entry);
    }
  }
  if (later_creation) {
    value_error("Creating variables on a non-first call to a function decorated with tf.function.");
  }
  return out;
}

std::shared_ptr<ConcreteFunction> Function::get_concrete_function(const std::vector<Value>& args,
                                                                  const Kwargs& kwargs) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  LedgerEntry entry;
  entry.concrete_only = true;
  std::vector<Value> a = args;
  if (options_.input_signature && args.empty() && kwargs.empty()) a = *options_.input_signature;
  Bound b = bind(a, kwargs);
  entry.args = args_summary(b.args);
  bool traced = false, traced2 = false;
  std::shared_ptr<ConcreteFunction> cf;
  int scope = created_variables_ ? kNoVariableCreation : kVariableCreation;
  bool first = !initialized_;
  initialized_ = true;
  cf = maybe_define(b, scope, entry, &traced);
  if (first && created_variables_) cf = maybe_define(b, kNoVariableCreation, entry, &traced2);
  entry.traced = traced || traced2;
  entry.concrete_function = cf->name();
  ledger_.push_back(entry);
  return cf;
}

int Function::experimental_get_tracing_count() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  return static_cast<int>(cache_.size());
}

std::vector<std::shared_ptr<ConcreteFunction>> Function::concrete_functions() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  std::vector<std::shared_ptr<ConcreteFunction>> out;
  for (auto& e : cache_) out.push_back(e.cf);
  return out;
}

std::string Function::pretty_printed_concrete_signatures(bool verbose) const {
  std::string s;
  auto cfs = concrete_functions();
  for (size_t i = 0; i < cfs.size(); ++i) {
    if (i) s += verbose ? "\n\n" : "\n";
    s += cfs[i]->pretty_printed_signature(verbose);
  }
  return s;
}

CallLedger Function::ledger() const {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  CallLedger l;
  l.entries = ledger_;
  return l;
}

void Function::set_fail_on_retrace(bool on) {
  std::lock_guard<std::recursive_mutex> lock(mu_);
  fail_on_retrace_ = on;
}

// ---- ConcreteFunction ----

std::vector<Tensor> ConcreteFunction::captured_inputs() const {
  std::vector<Tensor> out;
  for (auto& c : captures_) out.push_back(c.external);
  return out;
}

std::vector<Tensor> ConcreteFunction::inputs() const {
  std::vector<Tensor> out;
  for (Node* n : input_placeholders_) out.push_back(graph_fn_->graph->tensor(n, 0));
  for (auto& c : captures_) out.push_back(graph_fn_->graph->tensor(c.placeholder, 0));
  return out;
}

std::vector<Tensor> ConcreteFunction::outputs() const {
  std::vector<Tensor> out;
  for (auto& o : graph_fn_->outputs) out.push_back(graph_fn_->graph->tensor(o.node, o.index));
  return out;
}

std::string ConcreteFunction::output_type_repr() const {
  std::function<std::string(const Value&)> rep = [&](const Value& v) -> std::string {
    switch (v.kind()) {
      case Value::Kind::kTensor: return TensorSpec(v.as_tensor().shape(), v.as_tensor().dtype()).repr();
      case Value::Kind::kNone: return "Literal[None]";
      case Value::Kind::kList:
      case Value::Kind::kTuple: {
        std::string s = v.kind() == Value::Kind::kList ? "List[" : "Tuple[";
        for (size_t i = 0; i < v.items().size(); ++i) s += (i ? ", " : "") + rep(v.items()[i]);
        return s + "]";
      }
      case Value::Kind::kDict: {
        std::string s = "Dict[";
        bool first = true;
        for (auto& [k, x] : v.dict_items()) {
          s += (first ? "" : ", ") + std::string("[") + k.repr() + ", " + rep(x) + "]";
          first = false;
        }
        return s + "]";
      }
      default: return v.repr();
    }
  };
  return rep(structured_outputs_);
}

std::string ConcreteFunction::pretty_printed_signature(bool verbose) const {
  if (!verbose) return type_.signature_text() + " -> " + output_type_repr();
  std::string s = "Input Parameters:\n";
  for (auto& p : type_.params) {
    s += "  " + p.name + " (" + param_kind_name(p.kind) + "): " + p.type.repr() + "\n";
  }
  s += "Output Type:\n  " + output_type_repr() + "\nCaptures:\n";
  if (captures_.empty()) {
    s += "  None";
  } else {
    for (size_t i = 0; i < captures_.size(); ++i) {
      const auto& c = captures_[i];
      char buf[32];
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(reinterpret_cast<intptr_t>(c.external.id()) & 0xffffffffffffLL));
      s += (i ? "\n" : "") + std::string("  ") + buf + ": " +
           TensorSpec(c.external.shape(), c.external.dtype()).repr();
    }
  }
  return s;
}

std::string ConcreteFunction::structured_input_signature_repr() const {
  return structured_input_signature_.repr();
}

std::vector<Tensor> ConcreteFunction::run_flat(const std::vector<Tensor>& flat_args) const {
  std::vector<Tensor> feeds = flat_args;
  for (auto& c : captures_)
    if (c.kind != "const") feeds.push_back(c.external);
  try {
    return executor_->run(feeds);
  } catch (const Error& e) {
    std::string msg = e.what();
    if (is_kernel_status(e.kind()) && msg.find("[[{{node ") != std::string::npos) {
      throw Error(e.kind(), "Graph execution error:\n\n" + msg + " [Op:" + name_ + "]");
    }
    throw;
  }
}

Value ConcreteFunction::call_flat(const std::vector<Tensor>& flat_args) const {
  auto results = run_flat(flat_args);
  size_t k = 0;
  return rebuild(output_template_, results, k);
}

Value ConcreteFunction::operator()(const std::vector<Value>& args, const Kwargs& kwargs) const {
  // Structured signature: bind, then each parameter must be an instance of its traced type.
  std::string structured_err;
  try {
    auto b = detail::bind_arguments(params_, args, kwargs);
    if (b.values.size() != type_.params.size()) type_error("parameter count changed");
    std::vector<Tensor> flat;
    TraceTypeBuilder tb;
    std::function<void(const TraceType&, const Value&)> walk = [&](const TraceType& t, const Value& v) {
      if (t.kind() == TraceType::Kind::kTensorSpec) {
        Tensor x = v.kind() == Value::Kind::kTensor ? v.as_tensor() : convert_to_tensor(v, t.spec().dtype);
        if (!TensorSpec::from_tensor(x).is_subtype_of(TensorSpec(t.spec().shape, t.spec().dtype))) {
          type_error("Can not cast " + TensorSpec::from_tensor(x).repr() + " to " + t.spec().repr());
        }
        flat.push_back(x);
        return;
      }
      if (t.kind() == TraceType::Kind::kVariableSpec) {
        flat.push_back(Tensor::resource(v.as_variable()));
        return;
      }
      if (t.kind() == TraceType::Kind::kList || t.kind() == TraceType::Kind::kTuple) {
        for (size_t i = 0; i < t.children().size(); ++i) walk(t.children()[i], v.items()[i]);
        return;
      }
      if (!(tb.from_value(v) == t)) type_error("Can not cast " + v.repr() + " to " + t.repr());
    };
    for (size_t i = 0; i < type_.params.size(); ++i) walk(type_.params[i].type, b.values[i]);
    return call_flat(flat);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTypeError) throw;
    structured_err = "Binding inputs to tf.function failed due to `" + std::string(e.what()) +
                     "`. Received args: " + detail::args_repr(args) + " and kwargs: " +
                     detail::kwargs_repr(kwargs) + " for signature: " +
                     pretty_printed_signature(false) + ".";
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
        if (k == input_placeholders_[j]->name) flat_err = flat_name + " got two values for '" + k + "'.";
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
                   (args_in[i].kind() == Value::Kind::kStr ? "str" : args_in[i].kind() == Value::Kind::kInt ? "int" : "object") +
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
                           std::string(dtype_tf_string(flat[i].dtype())) + " tensor [Op:" + name_ + "]");
        }
      }
      return call_flat(flat);
    }
  }
  type_error(structured_err + "\nFallback to flat signature also failed due to: " + flat_err);
}

GraphReport ConcreteFunction::report() const {
  GraphReport r = report_function(*graph_fn_);
  r.function_name = name_;
  r.input_signature = pretty_printed_signature(false);
  for (auto& c : captures_) {
    r.captures.push_back(CaptureInfo{c.placeholder->name, c.external.dtype(), c.external.shape(), c.kind});
  }
  return r;
}

// ---- ledger ----

int CallLedger::calls() const {
  int n = 0;
  for (auto& e : entries) n += e.concrete_only ? 0 : e.count;
  return n;
}

int CallLedger::traces() const {
  int n = 0;
  for (auto& e : entries) n += e.traced ? 1 : 0;
  return n;
}

std::string CallLedger::text() const {
  std::string s = std::to_string(calls()) + " calls, " + std::to_string(traces()) + " traces\n";
  for (auto& e : entries) {
    std::string what = e.concrete_only ? "get_concrete_function" : "call " + std::to_string(e.call);
    if (e.failed) {
      s += what + " failed: " + e.error.substr(0, e.error.find('\n')) + "\n";
      continue;
    }
    char times[96];
    std::snprintf(times, sizeof times, " [trace %.0f us, run %.0f us]", e.trace_us, e.run_us);
    if (e.traced) {
      s += what + " traced: " + e.reason + " -> " + e.concrete_function + times + "\n";
    } else {
      std::snprintf(times, sizeof times, " [run %.0f us]", e.run_us);
      if (e.count > 1) {
        what = "calls " + std::to_string(e.call) + "-" + std::to_string(e.call + e.count - 1);
        s += what + " hit " + e.concrete_function + " (" + std::to_string(e.count) + " calls)" +
             times + "\n";
      } else {
        s += what + " hit " + e.concrete_function + times + "\n";
      }
    }
    s += "    args: " + e.args + "\n";
    for (auto& ev : e.evicted) s += "    evicted: " + ev + "\n";
  }
  return s;
}

std::string CallLedger::json() const {
  nlohmann::ordered_json j;
  j["calls"] = calls();
  j["traces"] = traces();
  j["entries"] = nlohmann::ordered_json::array();
  for (auto& e : entries) {
    nlohmann::ordered_json x;
    x["call"] = e.call;
    x["count"] = e.count;
    x["kind"] = e.concrete_only ? "get_concrete_function" : "call";
    x["traced"] = e.traced;
    x["concrete_function"] = e.concrete_function;
    x["args"] = e.args;
    x["reason"] = e.reason;
    x["trace_us"] = e.trace_us;
    x["run_us"] = e.run_us;
    if (!e.evicted.empty()) x["evicted"] = e.evicted;
    if (e.failed) x["error"] = e.error;
    j["entries"].push_back(x);
  }
  return j.dump();
}

// ---- stabilize, RetraceProbe ----

std::shared_ptr<Function> stabilize(const Function& fn, std::vector<Value> input_signature) {
  FunctionOptions o = fn.options();
  o.input_signature = std::move(input_signature);
  o.reduce_retracing = false;
  return std::make_shared<Function>(fn.name(), fn.parameters(), fn.body(), o);
}

RetraceProbe::RetraceProbe(std::shared_ptr<Function> fn) : fn_(std::move(fn)) {
  CallLedger l = fn_->ledger();
  start_ = l.entries.size();
  start_calls_ = l.calls();
  start_traces_ = l.traces();
}

std::vector<LedgerEntry> RetraceProbe::entries() const {
  auto all = fn_->ledger().entries;
  return std::vector<LedgerEntry>(all.begin() + static_cast<long>(start_), all.end());
}

int RetraceProbe::traces() const { return fn_->ledger().traces() - start_traces_; }

int RetraceProbe::calls() const { return fn_->ledger().calls() - start_calls_; }

std::string RetraceProbe::report() const {
  CallLedger l;
  l.entries = entries();
  return "RetraceProbe(" + fn_->name() + "): " + l.text();
}

}  // namespace tfs
