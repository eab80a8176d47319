// ConcreteFunction: what a trace holds, and how it prints (TF's signature formats:
// signature_text.cc).
#include "tfscope/concrete_function.h"

#include "tfscope/context.h"
#include "tfscope/signature_text.h"

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
  return output_type_text(structured_outputs_);
}

std::string ConcreteFunction::pretty_printed_signature(bool verbose) const {
  std::vector<std::string> captures;
  for (const auto& c : captures_) captures.push_back(capture_text(c.external));
  return signature_text(type_.params, structured_outputs_, captures, verbose);
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
