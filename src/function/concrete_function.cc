// ConcreteFunction: what a trace holds, and how it prints (TF's signature formats).
#include "tfscope/concrete_function.h"

#include <cstdio>
#include <functional>

#include "tfscope/composite_type.h"
#include "tfscope/context.h"

namespace tfs {

ConcreteFunction::~ConcreteFunction() {
  if (!name_.empty()) Context::get().remove_function(name_);
}

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
      case Value::Kind::kTensor:
        return TensorSpec(v.as_tensor().shape(), v.as_tensor().dtype()).repr();
      case Value::Kind::kNone:
        return "Literal[None]";
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
      case Value::Kind::kObject:
        // A composite result (a RaggedTensor) shows its type: RaggedTensorSpec(...).
        if (auto c = result_composite(v)) return c->repr();
        return v.repr();
      default:
        return v.repr();
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
      std::snprintf(
          buf, sizeof buf, "%lld",
          static_cast<long long>(reinterpret_cast<intptr_t>(c.external.id()) & 0xffffffffffffLL));
      s += (i ? "\n" : "") + std::string("  ") + buf + ": " +
           TensorSpec(c.external.shape(), c.external.dtype()).repr();
    }
  }
  return s;
}

std::string ConcreteFunction::structured_input_signature_repr() const {
  return structured_input_signature_.repr();
}

GraphReport ConcreteFunction::report() const {
  GraphReport r = report_function(*graph_fn_);
  r.function_name = name_;
  r.input_signature = pretty_printed_signature(false);
  for (auto& c : captures_) {
    r.captures.push_back(
        CaptureInfo{c.placeholder->name, c.external.dtype(), c.external.shape(), c.kind});
  }
  return r;
}

}  // namespace tfs
