// report_graph_def: the GraphReport of a GraphDef TF serialized, read with tfscope's own copies of
// TF's protos. Output dtypes come from the op's definition in tfscope's registry where tfscope
// defines the op, else from the node's "T"/"dtype" attr; shapes from the `_output_shapes` attr
// that as_graph_def(add_shapes=True) writes.
#include "tfscope/graph_def_report.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <tuple>

#include "tfscope/op_def.h"
#include "tfscope/proto/graph.pb.h"
#include "tfscope/tensor_bundle.h"

namespace tfs {

namespace {

struct TensorFacts {
  DType dtype = DType::kInvalid;
  std::string tf_dtype;  // TF's name when tfscope has no DType for it
  PartialShape shape;
};

// TF's Python name of a DataType enum number (tf.float16.name is "float16").
std::pair<DType, std::string> dtype_of_enum(int dt) {
  switch (dt) {
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 7:
    case 8:
    case 9:
    case 10:
    case 18:
    case 20:
    case 21:
      return {static_cast<DType>(dt), ""};
    case 14:
      return {DType::kInvalid, "bfloat16"};
    case 17:
      return {DType::kInvalid, "uint16"};
    case 19:
      return {DType::kInvalid, "float16"};
    case 22:
      return {DType::kInvalid, "uint32"};
    case 23:
      return {DType::kInvalid, "uint64"};
    default:
      break;
  }
  if (dt > 100) dt -= 100;  // a reference dtype (TF1 variables)
  std::string name = tensorflow::DataType_IsValid(dt)
                         ? tensorflow::DataType_Name(static_cast<tensorflow::DataType>(dt))
                         : "dtype " + std::to_string(dt);
  if (name.rfind("DT_", 0) == 0) {
    name = name.substr(3);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return {DType::kInvalid, name};
}

PartialShape shape_of(const tensorflow::TensorShapeProto& s) {
  if (s.unknown_rank()) return PartialShape();
  std::vector<int64_t> dims;
  for (const auto& d : s.dim()) dims.push_back(d.size() < 0 ? PartialShape::kUnknown : d.size());
  return PartialShape(std::move(dims));
}

const tensorflow::AttrValue* attr(const tensorflow::NodeDef& n, const char* name) {
  auto it = n.attr().find(name);
  return it == n.attr().end() ? nullptr : &it->second;
}

// The dtype enum of each output of `n`, as far as its op's definition (or its attrs) tell.
std::vector<int> output_dtypes(const tensorflow::NodeDef& n) {
  std::vector<int> out;
  if (const OpDef* def = OpRegistry::global().find(n.op())) {
    for (const ArgDef& a : def->outputs) {
      if (a.fixed != DType::kInvalid) {
        out.push_back(static_cast<int>(a.fixed));
      } else if (!a.type_list_attr.empty()) {
        const auto* v = attr(n, a.type_list_attr.c_str());
        if (v == nullptr) return out;
        for (int t : v->list().type()) out.push_back(t);
      } else {
        const auto* t = attr(n, a.type_attr.c_str());
        if (t == nullptr) return out;
        int count = 1;
        if (!a.number_attr.empty()) {
          const auto* num = attr(n, a.number_attr.c_str());
          if (num == nullptr) return out;
          count = static_cast<int>(num->i());
        }
        for (int i = 0; i < count; ++i) out.push_back(t->type());
      }
    }
    return out;
  }
  for (const char* name : {"T", "dtype"}) {
    if (const auto* t = attr(n, name);
        t != nullptr && t->value_case() == tensorflow::AttrValue::kType) {
      out.push_back(t->type());
      break;
    }
  }
  return out;
}

class GraphDefView {
 public:
  GraphDefView(const tensorflow::GraphDef& gd, std::string where) : where_(std::move(where)) {
    for (const auto& n : gd.node()) nodes_[n.name()] = &n;
  }

  // "name:index" (or "name", output 0) -> its node and output index.
  std::pair<const tensorflow::NodeDef*, int> find(const std::string& tensor) const {
    std::string node = tensor;
    int index = 0;
    if (auto colon = tensor.rfind(':'); colon != std::string::npos) {
      const std::string digits = tensor.substr(colon + 1);
      if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos &&
          digits.size() < 9) {
        node = tensor.substr(0, colon);
        index = std::stoi(digits);
      }
    }
    auto it = nodes_.find(node);
    return {it == nodes_.end() ? nullptr : it->second, index};
  }

  TensorFacts facts(const tensorflow::NodeDef& n, int index) const {
    TensorFacts f;
    if (n.op() == "Placeholder") {
      if (const auto* d = attr(n, "dtype"))
        std::tie(f.dtype, f.tf_dtype) = dtype_of_enum(d->type());
      if (const auto* s = attr(n, "shape")) f.shape = shape_of(s->shape());
      return f;
    }
    auto dts = output_dtypes(n);
    if (static_cast<size_t>(index) < dts.size()) {
      std::tie(f.dtype, f.tf_dtype) = dtype_of_enum(dts[static_cast<size_t>(index)]);
    } else {
      f.tf_dtype = "?";
    }
    if (const auto* s = attr(n, "_output_shapes"); s != nullptr && index < s->list().shape_size()) {
      f.shape = shape_of(s->list().shape(index));
    }
    return f;
  }

  // A tensor of `given`: its node's facts, the shape from `given.shapes` where it has one.
  TensorFacts require(const std::string& tensor, const GraphDefFacts& given) const {
    auto [n, index] = find(tensor);
    if (n == nullptr) {
      throw savedmodel::FormatError("[graphdef] " + where_ + ": no node for tensor '" + tensor +
                                    "'");
    }
    TensorFacts f = facts(*n, index);
    if (auto it = given.shapes.find(tensor); it != given.shapes.end()) {
      f.shape = it->second ? PartialShape(*it->second) : PartialShape();
    }
    return f;
  }

 private:
  std::map<std::string, const tensorflow::NodeDef*> nodes_;
  std::string where_;
};

std::string dot_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r;
}

std::string dtype_text(const TensorFacts& f) {
  return f.dtype == DType::kInvalid && !f.tf_dtype.empty() ? f.tf_dtype
                                                           : std::string(dtype_name(f.dtype));
}

}  // namespace

GraphReport report_graph_def(std::string_view serialized, const GraphDefFacts& facts) {
  const std::string where = facts.function_name.empty() ? "graph" : facts.function_name;
  tensorflow::GraphDef gd;
  if (serialized.size() > static_cast<size_t>(INT32_MAX) ||
      !gd.ParseFromArray(serialized.data(), static_cast<int>(serialized.size()))) {
    throw savedmodel::FormatError("[graphdef] " + where +
                                  ": the bytes are not a serialized GraphDef");
  }
  GraphDefView view(gd, where);
  GraphReport r;
  r.function_name = facts.function_name;
  r.graph_name = facts.graph_name;
  r.input_signature = facts.signature;
  r.num_nodes = gd.node_size();
  for (const auto& n : gd.node()) ++r.op_counts[n.op()];
  // inputs and captures by their placeholder's name, as report_function names tfscope's
  auto node_of = [&](const std::string& t) {
    const auto* n = view.find(t).first;
    return n != nullptr ? n->name() : t;
  };
  for (const auto& t : facts.inputs) {
    TensorFacts f = view.require(t, facts);
    r.inputs.push_back({node_of(t), f.dtype, f.shape, f.tf_dtype});
  }
  for (const auto& [t, kind] : facts.captures) {
    TensorFacts f = view.require(t, facts);
    r.captures.push_back({node_of(t), f.dtype, f.shape, kind, f.tf_dtype});
  }
  for (const auto& t : facts.outputs) {
    TensorFacts f = view.require(t, facts);
    r.outputs.push_back({t, f.dtype, f.shape, f.tf_dtype});
  }
  for (const auto& f : gd.library().function()) r.library.push_back(f.signature().name());
  std::sort(r.library.begin(), r.library.end());
  std::string body;
  for (const auto& n : gd.node()) {
    body += "  \"" + dot_escape(n.name()) + "\" [label=\"" + dot_escape(n.name()) + "\\n" +
            dot_escape(n.op()) + "\"";
    if (n.op() == "Placeholder") body += ", shape=box";
    const OpDef* def = OpRegistry::global().find(n.op());
    if (def != nullptr && def->stateful) body += ", style=filled, fillcolor=lightyellow";
    body += "];\n";
    for (const auto& in : n.input()) {
      if (!in.empty() && in[0] == '^') {
        body += "  \"" + dot_escape(in.substr(1)) + "\" -> \"" + dot_escape(n.name()) +
                "\" [style=dashed];\n";
        continue;
      }
      auto [src, index] = view.find(in);
      std::string label;
      if (src != nullptr) {
        TensorFacts f = view.facts(*src, index);
        label = dtype_text(f) + " " + f.shape.str();
      }
      body += "  \"" + dot_escape(src != nullptr ? src->name() : in) + "\" -> \"" +
              dot_escape(n.name()) + "\" [label=\"" + dot_escape(label) + "\"];\n";
    }
  }
  r.dot_body = body;
  return r;
}

}  // namespace tfs
