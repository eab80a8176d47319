#include "binding.h"

#include <algorithm>
#include <map>

namespace tfs::detail {

BoundArguments bind_arguments(const std::vector<Parameter>& params, const std::vector<Value>& args,
                              const Kwargs& kwargs) {
  // Fast path (the common call): positional arguments only, plain parameters, defaults for the
  // rest. Gives exactly what the general path below gives for such calls.
  if (kwargs.empty() && args.size() <= params.size()) {
    bool plain = true;
    for (size_t i = 0; i < params.size() && plain; ++i) {
      const Parameter& p = params[i];
      plain = (p.kind == ParamKind::kPositionalOrKeyword || p.kind == ParamKind::kPositionalOnly) &&
              (i < args.size() || p.default_value.has_value());
    }
    if (plain) {
      BoundArguments out;
      out.names.reserve(params.size());
      out.kinds.reserve(params.size());
      out.values.reserve(params.size());
      for (size_t i = 0; i < params.size(); ++i) {
        out.names.push_back(params[i].name);
        out.kinds.push_back(params[i].kind);
        out.values.push_back(i < args.size() ? args[i] : *params[i].default_value);
      }
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
      return p.name == k && (p.kind == ParamKind::kPositionalOrKeyword ||
                             p.kind == ParamKind::kKeywordOnly || p.kind == ParamKind::kPositionalOnly);
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
  BoundArguments out;
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
  for (size_t i : order) {
    sorted.names.push_back(out.names[i]);
    sorted.kinds.push_back(out.kinds[i]);
    sorted.values.push_back(out.values[i]);
    if (out.kinds[i] != ParamKind::kKeywordOnly) sorted.num_positional++;
  }
  return sorted;
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

}  // namespace tfs::detail
