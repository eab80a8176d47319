// FunctionType: equality, hashing, contravariant dispatch and generalisation over parameters,
// and TF's signature text (signature_text.cc).
#include "tfscope/function_type.h"

#include <functional>

#include "tfscope/signature_text.h"

namespace tfs {

const char* param_kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::kPositionalOnly:
      return "POSITIONAL_ONLY";
    case ParamKind::kPositionalOrKeyword:
      return "POSITIONAL_OR_KEYWORD";
    case ParamKind::kVarPositional:
      return "VAR_POSITIONAL";
    case ParamKind::kKeywordOnly:
      return "KEYWORD_ONLY";
    case ParamKind::kVarKeyword:
      return "VAR_KEYWORD";
  }
  return "?";
}

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

size_t FunctionType::skeleton_hash() const {
  size_t h = params.size();
  for (auto& p : params) {
    h = h * 1000003u ^ p.type.skeleton_hash() ^ std::hash<std::string>()(p.name);
  }
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

std::optional<FunctionType> FunctionType::most_specific_common_subtype(
    const FunctionType& o) const {
  // Named as TF names it: the common *supertype* of the parameter types (contravariance).
  if (params.size() != o.params.size()) return std::nullopt;
  FunctionType r;
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name != o.params[i].name || params[i].kind != o.params[i].kind)
      return std::nullopt;
    auto s = params[i].type.most_specific_common_supertype(o.params[i].type);
    if (!s) return std::nullopt;
    r.params.push_back(TypedParameter{params[i].name, params[i].kind, *s});
  }
  return r;
}

std::string FunctionType::signature_text() const {
  return parameters_text(params);
}

}  // namespace tfs
