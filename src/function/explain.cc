// Why a call traced: the request's type against the closest cached trace, in one line a user
// understands ("x: shape (2,) -> (4,)", "factor: Literal[2] -> Literal[3]").
#include "explain.h"

namespace tfs::detail {

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
      out += (out.empty() ? "" : "; ") +
             diff_types(path + "[" + std::to_string(i) + "]", a.children()[i], b.children()[i]);
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

std::string explain_retrace(const TraceCache& cache, const FunctionType& req, int scope,
                            bool scope_without_creation) {
  if (cache.empty()) return "first call";
  const TraceCache::Entry* closest = cache.closest(req, scope);
  if (!closest) {
    if (!cache.has_scope(scope) && scope_without_creation) {
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

std::string args_summary(const BoundArguments& a) {
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
    s += (i ? ", " : "") + a.name(i) + "=" + d;
  }
  return s;
}

}  // namespace tfs::detail
