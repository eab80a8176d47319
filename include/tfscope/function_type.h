// A function's type, as TF 2.21's FunctionType: its Python-level parameters (name, kind, default)
// and, for a traced function, each parameter's TraceType. The cache keys on it: contravariant
// dispatch (a trace serves a request whose parameter types are subtypes of its own) and
// reduce_retracing's generalisation.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/trace_type.h"
#include "tfscope/value.h"

namespace tfs {

enum class ParamKind {
  kPositionalOnly,
  kPositionalOrKeyword,
  kVarPositional,
  kKeywordOnly,
  kVarKeyword
};
const char* param_kind_name(ParamKind k);  // "POSITIONAL_OR_KEYWORD", ...

struct Parameter {
  std::string name;
  ParamKind kind = ParamKind::kPositionalOrKeyword;
  std::optional<Value> default_value;
};

using Kwargs = std::vector<std::pair<std::string, Value>>;

// One traced parameter of a concrete function's type.
struct TypedParameter {
  std::string name;
  ParamKind kind;
  TraceType type;
  bool shows_default = false;  // printed "= <captured_default_value>" (input_signature errors)
};

struct FunctionType {
  std::vector<TypedParameter> params;
  bool operator==(const FunctionType& o) const;
  size_t hash() const;
  // The hash of the type with every tensor and variable shape left out: only types with equal
  // skeletons can be subtypes or have a common supertype (literals, objects, dtypes and
  // structure must agree), so the cache searches one skeleton's traces, not all of them.
  size_t skeleton_hash() const;
  // Contravariant: can a function of type `*this` serve a request of type `req`?
  bool is_supertype_of(const FunctionType& req) const;
  std::optional<FunctionType> most_specific_common_subtype(const FunctionType& o) const;
  std::string signature_text() const;  // "(x: TensorSpec(...), factor: Literal[2])"
};

}  // namespace tfs
