#include "binding.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>

#include "tfscope/detail/namedtuple_class.h"
#include "tfscope/ops.h"

namespace tfs::detail {

std::shared_ptr<const ArgLayout> ArgLayout::make(std::vector<std::string> names,
                                                 std::vector<ParamKind> kinds) {
  auto l = std::make_shared<ArgLayout>();
  for (auto& n : names) l->name_hashes.push_back(std::hash<std::string>()(n));
  l->names = std::move(names);
  l->kinds = std::move(kinds);
  return l;
}

std::shared_ptr<const ArgLayout> plain_layout(const std::vector<Parameter>& params) {
  std::vector<std::string> names;
  std::vector<ParamKind> kinds;
  for (const Parameter& p : params) {
    if (p.kind != ParamKind::kPositionalOrKeyword && p.kind != ParamKind::kPositionalOnly)
      return nullptr;
    names.push_back(p.name);
    kinds.push_back(p.kind);
  }
  return ArgLayout::make(std::move(names), std::move(kinds));
}

BoundArguments bind_arguments(const std::vector<Parameter>& params, const std::vector<Value>& args,
                              const Kwargs& kwargs, const std::shared_ptr<const ArgLayout>& plain) {
  // Fast path (the common call): positional arguments only, plain parameters, defaults for the
  // rest. Gives exactly what the general path below gives for such calls.
  if (kwargs.empty() && args.size() <= params.size()) {
    bool ok = true;
    for (size_t i = 0; i < params.size() && ok; ++i) {
      const Parameter& p = params[i];
      ok = (p.kind == ParamKind::kPositionalOrKeyword || p.kind == ParamKind::kPositionalOnly) &&
           (i < args.size() || p.default_value.has_value());
    }
    if (ok) {
      BoundArguments out;
      out.layout = plain ? plain : plain_layout(params);
      out.values.reserve(params.size());
      for (size_t i = 0; i < params.size(); ++i)
        out.values.push_back(i < args.size() ? args[i] : *params[i].default_value);
      out.num_positional = params.size();
      return out;
    }
  }
  std::map<std::string, Value> bound;
  std::vector<Value> extra_args;
  Kwargs extra_kwargs;
  size_t ai = 0;
  bool has_var_pos = false, has_var_kw = false;
  for (auto& p : params) {
    if (p.kind == ParamKind::kVarPositional) has_var_pos = true;
    if (p.kind == ParamKind::kVarKeyword) has_var_kw = true;
  }
  for (auto& p : params) {
    if (ai >= args.size()) break;
    if (p.kind == ParamKind::kPositionalOnly || p.kind == ParamKind::kPositionalOrKeyword) {
      bound[p.name] = args[ai++];
    } else if (p.kind == ParamKind::kVarPositional) {
      while (ai < args.size()) extra_args.push_back(args[ai++]);
    }
  }
  if (ai < args.size()) type_error("too many positional arguments");
  std::string unexpected;
  for (auto& [k, v] : kwargs) {
    auto it = std::find_if(params.begin(), params.end(), [&k = k](const Parameter& p) {
      return p.name == k &&
             (p.kind == ParamKind::kPositionalOrKeyword || p.kind == ParamKind::kKeywordOnly ||
              p.kind == ParamKind::kPositionalOnly);
    });
    if (it != params.end() && it->kind == ParamKind::kPositionalOnly && !has_var_kw) {
      type_error("'" + k + "' parameter is positional only, but was passed as a keyword");
    }
    if (it != params.end() && it->kind != ParamKind::kPositionalOnly) {
      if (bound.count(k)) type_error("multiple values for argument '" + k + "'");
      bound[k] = v;
    } else if (has_var_kw) {
      extra_kwargs.emplace_back(k, v);
    } else if (unexpected.empty()) {
      unexpected = k;  // Python reports missing arguments first
    }
  }
  struct Unsorted {
    std::vector<std::string> names;
    std::vector<ParamKind> kinds;
    std::vector<Value> values;
  } out;
  for (auto& p : params) {
    if (p.kind == ParamKind::kVarPositional) {
      for (size_t i = 0; i < extra_args.size(); ++i) {
        out.names.push_back(p.name + "_" + std::to_string(i));
        out.kinds.push_back(ParamKind::kPositionalOnly);
        out.values.push_back(extra_args[i]);
      }
      continue;
    }
    if (p.kind == ParamKind::kVarKeyword) continue;
    auto it = bound.find(p.name);
    Value v;
    if (it != bound.end()) {
      v = it->second;
    } else if (p.default_value) {
      v = *p.default_value;
    } else {
      type_error("missing a required argument: '" + p.name + "'");
    }
    ParamKind kind = p.kind;
    if (has_var_pos && kind == ParamKind::kPositionalOrKeyword) kind = ParamKind::kPositionalOnly;
    out.names.push_back(p.name);
    out.kinds.push_back(kind);
    out.values.push_back(v);
  }
  if (!unexpected.empty()) type_error("got an unexpected keyword argument '" + unexpected + "'");
  std::sort(extra_kwargs.begin(), extra_kwargs.end(),
            [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [k, v] : extra_kwargs) {
    out.names.push_back(k);
    out.kinds.push_back(ParamKind::kKeywordOnly);
    out.values.push_back(v);
  }
  // Keyword-only parameters come after the positional ones in the canonical order.
  std::vector<size_t> order(out.names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return (out.kinds[a] == ParamKind::kKeywordOnly) < (out.kinds[b] == ParamKind::kKeywordOnly);
  });
  BoundArguments sorted;
  std::vector<std::string> names;
  std::vector<ParamKind> kinds;
  for (size_t i : order) {
    names.push_back(out.names[i]);
    kinds.push_back(out.kinds[i]);
    sorted.values.push_back(out.values[i]);
    if (out.kinds[i] != ParamKind::kKeywordOnly) sorted.num_positional++;
  }
  sorted.layout = ArgLayout::make(std::move(names), std::move(kinds));
  return sorted;
}

namespace {

// A TypeSpec other than TensorSpec in an input_signature (tf.RaggedTensorSpec): an object that
// traces as a type of its own.
bool spec_object(const Value& v) {
  if (v.kind() != Value::Kind::kObject) return false;
  auto* o = dynamic_cast<const TracedObject*>(v.as_object().get());
  return o && o->trace_type();
}

}  // namespace

std::vector<TypedParameter> add_type_constraints(std::vector<Parameter>& params,
                                                 const std::vector<Value>& signature) {
  std::function<void(const Value&)> check_leaf = [&](const Value& v) {
    Value::Kind k = v.kind();
    if (k == Value::Kind::kList || k == Value::Kind::kTuple || k == Value::Kind::kNamedTuple) {
      for (auto& x : v.items()) check_leaf(x);
      return;
    }
    if (k == Value::Kind::kDict) {
      for (auto& kv : v.dict_items()) check_leaf(kv.second);
      return;
    }
    if (k != Value::Kind::kTensorSpec && !spec_object(v)) {
      type_error(
          "input_signature must be a possibly nested sequence of TensorSpec objects, got "
          "invalid args [" +
          v.repr() + "] with types [" + python_class_repr(v) + "].");
    }
  };
  for (auto& v : signature) check_leaf(v);
  bool has_var_pos = std::any_of(params.begin(), params.end(), [](const Parameter& p) {
    return p.kind == ParamKind::kVarPositional;
  });
  TraceTypeBuilder tb;
  size_t next = 0;  // the first constraint not yet taken
  std::vector<TypedParameter> typed;
  std::vector<Parameter> bound;
  for (const Parameter& p : params) {
    ParamKind kind = has_var_pos && p.kind == ParamKind::kPositionalOrKeyword
                         ? ParamKind::kPositionalOnly
                         : p.kind;
    if (p.kind == ParamKind::kVarKeyword) continue;
    if (p.kind == ParamKind::kVarPositional) {
      for (size_t i = 0; next < signature.size(); ++i) {
        std::string name = p.name + "_" + std::to_string(i);
        typed.push_back(
            TypedParameter{name, ParamKind::kPositionalOnly, tb.from_value(signature[next++])});
        bound.push_back(Parameter{name, ParamKind::kPositionalOnly, std::nullopt});
      }
      continue;
    }
    if (p.kind == ParamKind::kKeywordOnly && !p.default_value) {
      type_error("Since input_signature is defined, keyword-only parameter `" + p.name +
                 "` must have a default value");
    }
    if (next < signature.size()) {
      typed.push_back(TypedParameter{p.name, kind, tb.from_value(signature[next++])});
    } else if (p.default_value) {
      typed.push_back(TypedParameter{p.name, kind, tb.from_value(*p.default_value)});
    } else {
      type_error("input_signature missing type constraint for " + p.name);
    }
    bound.push_back(Parameter{p.name, kind, p.default_value});
  }
  if (next < signature.size()) {
    type_error("input_signature contains " + std::to_string(signature.size() - next) +
               " extra type constraints.");
  }
  params = std::move(bound);
  return typed;
}

std::string plain_signature_text(const std::vector<Parameter>& params) {
  std::string s = "(";
  bool star_done = false;
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter& p = params[i];
    if (i) s += ", ";
    if (p.kind == ParamKind::kVarPositional) {
      s += "*" + p.name;
      star_done = true;
      continue;
    }
    if (p.kind == ParamKind::kVarKeyword) {
      s += "**" + p.name;
      continue;
    }
    if (p.kind == ParamKind::kKeywordOnly && !star_done) {
      s += "*, ";
      star_done = true;
    }
    s += p.name;
    if (p.default_value) s += "=<captured_default_value>";
  }
  return s + ")";
}

std::string args_repr(const std::vector<Value>& args) {
  std::string s = "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].repr();
  if (args.size() == 1) s += ",";
  return s + ")";
}

std::string kwargs_repr(const Kwargs& kwargs) {
  std::string s = "{";
  for (size_t i = 0; i < kwargs.size(); ++i) {
    s += (i ? ", " : "") + Value(kwargs[i].first).repr() + ": " + kwargs[i].second.repr();
  }
  return s + "}";
}

std::string python_class_repr(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kNone:
      return "<class 'NoneType'>";
    case Value::Kind::kBool:
      return "<class 'bool'>";
    case Value::Kind::kInt:
      return "<class 'int'>";
    case Value::Kind::kFloat:
      return "<class 'float'>";
    case Value::Kind::kStr:
      return "<class 'str'>";
    case Value::Kind::kDict:
      return "<class 'dict'>";
    case Value::Kind::kTensor:
      return "<class 'tensorflow.python.framework.ops.EagerTensor'>";
    default:
      return "<class 'object'>";
  }
}

std::string container_mismatch(const Value& v, const TraceType& t) {
  using K = TraceType::Kind;
  if (t.kind() == K::kList || t.kind() == K::kTuple) {
    bool want_list = t.kind() == K::kList;
    if (v.kind() != (want_list ? Value::Kind::kList : Value::Kind::kTuple))
      return "Can not cast " + v.repr() + " to " + (want_list ? "list" : "tuple") + " type.";
    if (v.items().size() == t.children().size()) return {};
    // A tuple says which length it wants; TF's List type trips over its own Tuple instead.
    if (want_list) return "object of type 'Tuple' has no len()";
    return "Expected " + v.repr() + " to have length of " + std::to_string(t.children().size());
  }
  if (t.kind() == K::kDict) {
    if (v.kind() != Value::Kind::kDict) return "Can not cast " + v.repr() + " to a Dict type.";
    bool same_keys = v.dict_items().size() == t.keys().size();
    for (auto& k : t.keys()) same_keys = same_keys && v.dict_get(k) != nullptr;
    if (!same_keys) return v.repr() + " has different keys with the TraceType " + t.repr() + ".";
  }
  return {};
}

namespace {
std::atomic<NamedTupleClassRepr> g_namedtuple_class_repr{nullptr};
}  // namespace

void set_namedtuple_class_repr(NamedTupleClassRepr fn) {
  g_namedtuple_class_repr.store(fn);
}

std::string namedtuple_class_repr(const std::string& type_name,
                                  const std::vector<std::string>& fields) {
  if (NamedTupleClassRepr fn = g_namedtuple_class_repr.load()) {
    std::string r = fn(type_name, fields);
    if (!r.empty()) return r;
  }
  return "<class '" + type_name + "'>";
}

std::string namedtuple_mismatch(const Value& v, const TraceType& t) {
  if (v.kind() != Value::Kind::kNamedTuple)
    return "Cannot cast " + v.repr() + " to type " +
           namedtuple_class_repr(t.type_name(), t.fields()) + ".";
  if (v.named_tuple().fields != t.fields())
    return v.repr() + " has different attributes with the TraceType " + t.repr();
  return {};
}

namespace {

Value cast_value(const Value& v, const TraceType& t, const BindingFailure& fail) {
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
    if (std::string e = container_mismatch(v, t); !e.empty()) fail(e);
    ValueList items;
    for (size_t i = 0; i < t.children().size(); ++i)
      items.push_back(cast_value(v.items()[i], t.children()[i], fail));
    return t.kind() == TraceType::Kind::kList ? Value::list(items) : Value::tuple(items);
  }
  if (t.kind() == TraceType::Kind::kNamedTuple) {
    if (std::string e = namedtuple_mismatch(v, t); !e.empty()) fail(e);
    ValueList items;
    for (size_t i = 0; i < t.children().size(); ++i)
      items.push_back(cast_value(v.items()[i], t.children()[i], fail));
    return Value::named_tuple(t.type_name(), t.fields(), std::move(items));
  }
  if (t.kind() == TraceType::Kind::kDict) {
    if (std::string e = container_mismatch(v, t); !e.empty()) fail(e);
    ValueItems items;
    for (size_t i = 0; i < t.keys().size(); ++i) {
      for (auto& kv : v.dict_items())
        if (kv.first == t.keys()[i])
          items.emplace_back(kv.first, cast_value(kv.second, t.children()[i], fail));
    }
    return Value::dict(items);
  }
  if (t.kind() == TraceType::Kind::kCustom) {
    try {
      return t.custom().cast(v);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kTypeError) throw;
      fail(e.what());
    }
  }
  TraceTypeBuilder tb;
  if (!(tb.from_value(v) == t)) fail("Can not cast " + v.repr() + " to " + t.repr());
  return v;
}

}  // namespace

void cast_to_signature(BoundArguments& b, const std::vector<TypedParameter>& signature,
                       const BindingFailure& fail) {
  for (size_t i = 0; i < b.values.size() && i < signature.size(); ++i) {
    b.values[i] = cast_value(b.values[i], signature[i].type, fail);
  }
}

}  // namespace tfs::detail
