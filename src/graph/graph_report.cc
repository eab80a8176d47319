#include "tfscope/graph_report.h"

#include <nlohmann/json.hpp>

#include "tfscope/gradient_functions.h"

namespace tfs {

namespace {

std::string dot_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

template <class T>
std::string dtype_text_of(const T& t) {
  return t.dtype == DType::kInvalid && !t.tf_dtype.empty() ? t.tf_dtype
                                                           : std::string(dtype_name(t.dtype));
}

// "call 2 of __inference_f_13 (a GradientTape recorded the call)".
std::string built_by_text(const GradientFunctionPair& p) {
  std::string who;
  if (p.call > 0)
    who = "call " + std::to_string(p.call) + " of " + p.built_by;
  else if (p.built_by.empty())
    who = "a gradient outside any function";
  else
    who = "the trace of " + p.built_by;
  return who + " (" + gradient_pair_reason(p) + ")";
}

}  // namespace

GraphReport report_function(const GraphFunction& fn) {
  GraphReport r;
  r.function_name = fn.name;
  r.graph_name = fn.graph->name();
  r.num_nodes = fn.graph->num_nodes();
  r.op_counts = fn.graph->op_counts();
  for (size_t i = 0; i < fn.args.size(); ++i) {
    Node* a = fn.args[i];
    r.inputs.push_back({a->name, a->output_dtypes[0], a->output_shapes[0]});
  }
  for (auto& o : fn.outputs) {
    r.outputs.push_back({o.node->name + ":" + std::to_string(o.index),
                         o.node->output_dtypes[static_cast<size_t>(o.index)],
                         o.node->output_shapes[static_cast<size_t>(o.index)]});
  }
  for (auto& [name, f] : fn.graph->library()) r.library.push_back(name);
  std::string body;
  for (auto& n : fn.graph->nodes()) {
    body += "  \"" + dot_escape(n->name) + "\" [label=\"" + dot_escape(n->name) + "\\n" +
            dot_escape(n->op()) + "\"";
    if (n->op() == "Placeholder") body += ", shape=box";
    if (n->def->stateful) body += ", style=filled, fillcolor=lightyellow";
    body += "];\n";
    for (auto& in : n->inputs) {
      auto& in_shape = in.node->output_shapes[static_cast<size_t>(in.index)];
      body += "  \"" + dot_escape(in.node->name) + "\" -> \"" + dot_escape(n->name) +
              "\" [label=\"" +
              std::string(dtype_name(in.node->output_dtypes[static_cast<size_t>(in.index)])) + " " +
              dot_escape(in_shape.str()) + "\"];\n";
    }
    for (Node* c : n->control_inputs) {
      body +=
          "  \"" + dot_escape(c->name) + "\" -> \"" + dot_escape(n->name) + "\" [style=dashed];\n";
    }
  }
  r.dot_body = body;
  return r;
}

std::string GraphReport::text() const {
  std::string s = "GraphReport for " + function_name + " (graph " + graph_name + ")\n";
  if (!input_signature.empty()) s += "  signature: " + input_signature + "\n";
  s += "  nodes: " + std::to_string(num_nodes) + "\n  ops by type:\n";
  for (auto& [op, n] : op_counts) s += "    " + op + ": " + std::to_string(n) + "\n";
  s += "  inputs:\n";
  for (auto& t : inputs) {
    s += "    " + t.name + ": " + dtype_text_of(t) + " " + t.shape.str() + "\n";
  }
  s += "  captures:";
  if (captures.empty()) s += " none";
  s += "\n";
  for (auto& c : captures) {
    s += "    " + c.name + ": " + dtype_text_of(c) + " " + c.shape.str() + " (" + c.kind + ")\n";
  }
  s += "  outputs:\n";
  for (auto& t : outputs) {
    s += "    " + t.name + ": " + dtype_text_of(t) + " " + t.shape.str() + "\n";
  }
  if (!library.empty()) {
    s += "  library:\n";
    for (auto& f : library) s += "    " + f + "\n";
  }
  auto pairs = gradient_functions_of(function_name);
  if (!pairs.empty()) {
    s += "  gradient functions:\n";
    for (auto& p : pairs) {
      s += "    " + p.forward + " (" + std::to_string(p.forward_nodes) + " nodes), " + p.backward +
           " (" + std::to_string(p.backward_nodes) + " nodes): built by " + built_by_text(p) + "\n";
    }
  }
  return s;
}

std::string GraphReport::json() const {
  nlohmann::ordered_json j;
  j["function"] = function_name;
  j["graph"] = graph_name;
  j["signature"] = input_signature;
  j["num_nodes"] = num_nodes;
  j["op_counts"] = nlohmann::ordered_json::object();
  for (auto& [op, n] : op_counts) j["op_counts"][op] = n;
  auto tensors = [](const std::vector<TensorInfo>& v) {
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (auto& t : v) {
      a.push_back({{"name", t.name}, {"dtype", dtype_text_of(t)}, {"shape", t.shape.str()}});
    }
    return a;
  };
  j["inputs"] = tensors(inputs);
  j["outputs"] = tensors(outputs);
  j["captures"] = nlohmann::ordered_json::array();
  for (auto& c : captures) {
    j["captures"].push_back({{"name", c.name},
                             {"dtype", dtype_text_of(c)},
                             {"shape", c.shape.str()},
                             {"kind", c.kind}});
  }
  j["library"] = library;
  j["gradient_functions"] = nlohmann::ordered_json::array();
  for (auto& p : gradient_functions_of(function_name)) {
    j["gradient_functions"].push_back({{"forward", p.forward},
                                       {"backward", p.backward},
                                       {"forward_nodes", p.forward_nodes},
                                       {"backward_nodes", p.backward_nodes},
                                       {"kind", p.kind},
                                       {"built_by", p.built_by},
                                       {"call", p.call}});
  }
  return j.dump();
}

std::string GraphReport::dot() const {
  return "digraph \"" + dot_escape(function_name) + "\" {\n  rankdir=TB;\n  node [fontsize=10];\n" +
         dot_body + "}\n";
}

}  // namespace tfs
