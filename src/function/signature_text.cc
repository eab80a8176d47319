// TF 2.21's signature texts (function_type.FunctionType's __repr__ and ConcreteFunction's
// pretty_printed_signature), shared by traced, restored and loaded-signature functions.
#include "tfscope/signature_text.h"

#include <cctype>
#include <cstdint>
#include <functional>

#include "tfscope/composite_type.h"

namespace tfs {

std::string parameters_text(const std::vector<TypedParameter>& params) {
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
    bool last_pos_only =
        params[i].kind == ParamKind::kPositionalOnly &&
        (i + 1 == params.size() || params[i + 1].kind != ParamKind::kPositionalOnly);
    if (last_pos_only) s += ", /";
  }
  return s + ")";
}

std::string output_type_text(const Value& structured_outputs) {
  std::function<std::string(const Value&)> rep = [&](const Value& v) -> std::string {
    auto join = [&](const ValueList& items) {
      std::string s;
      for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + rep(items[i]);
      return s;
    };
    switch (v.kind()) {
      case Value::Kind::kTensor:
        return TensorSpec(v.as_tensor().shape(), v.as_tensor().dtype()).repr();
      case Value::Kind::kTensorSpec:
        return v.as_spec().repr();
      case Value::Kind::kNone:
        return "Literal[None]";
      case Value::Kind::kList:
        return "List[" + join(v.items()) + "]";
      case Value::Kind::kTuple:
        return "Tuple[" + join(v.items()) + "]";
      case Value::Kind::kNamedTuple: {
        const auto& nt = v.named_tuple();
        std::string s = nt.type_name + "[";
        for (size_t i = 0; i < nt.fields.size(); ++i)
          s += (i ? ", " : "") + std::string("['") + nt.fields[i] + "', " + rep(nt.values[i]) + "]";
        return s + "]";
      }
      case Value::Kind::kDict: {
        std::string s = "Dict[";
        bool first = true;
        for (const auto& [k, x] : v.dict_items()) {
          s += (first ? "" : ", ") + std::string("[") + k.repr() + ", " + rep(x) + "]";
          first = false;
        }
        return s + "]";
      }
      case Value::Kind::kObject:
        if (auto c = result_composite(v)) return c->repr();
        return v.repr();
      default:
        return v.repr();
    }
  };
  return rep(structured_outputs);
}

std::string capture_text(const Tensor& external) {
  // A variable's handle is one Python object in TF, the same id in every trace that captures
  // it; here each trace holds a handle tensor of its own, so the resource names it.
  const void* object = external.id();
  if (external.dtype() == DType::kResource && external.resource_handle())
    object = external.resource_handle().get();
  const auto id = reinterpret_cast<intptr_t>(object) & 0xffffffffffffLL;
  return std::to_string(static_cast<long long>(id)) + ": " +
         TensorSpec(external.shape(), external.dtype()).repr();
}

std::string signature_text(const std::vector<TypedParameter>& params,
                           const Value& structured_outputs,
                           const std::vector<std::string>& captures, bool verbose) {
  if (!verbose) return parameters_text(params) + " -> " + output_type_text(structured_outputs);
  std::string s = "Input Parameters:\n";
  for (const auto& p : params)
    s += "  " + p.name + " (" + param_kind_name(p.kind) + "): " + p.type.repr() + "\n";
  s += "Output Type:\n  " + output_type_text(structured_outputs) + "\nCaptures:\n";
  if (captures.empty()) return s + "  None";
  for (size_t i = 0; i < captures.size(); ++i) s += (i ? "\n  " : "  ") + captures[i];
  return s;
}

std::string sanitize_spec_name(const std::string& path) {
  if (path.empty()) return "unknown";
  std::string s;
  for (unsigned char c : path) s += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '_';
  return std::isalpha(static_cast<unsigned char>(s[0])) ? s : "tensor_" + s;
}

}  // namespace tfs
