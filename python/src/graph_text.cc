// TF's printed protos of a traced graph: `print(graph.as_graph_def())` and `print(op.node_def)`.
// TF builds the GraphDef in C++ and Python's protobuf (upb) prints it, so this builds the same
// proto (graph order, TF's attrs, the library's FunctionDefs as a SavedModel holds them) and prints
// it as upb's text encoder does: fields by number, map entries in upb's order, floats in the
// shortest of %.6g/%.9g (doubles %.15g/%.17g) that reads back, strings and bytes escaped its way.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../../src/savedmodel/graph_convert.h"
#include "tfscope/concrete_function.h"
#include "tfscope/saved_model_io.h"

namespace nb = nanobind;
namespace pb = google::protobuf;

namespace tfpy {

namespace {

// tensorflow/core/public/version.h of TF 2.21 (TF_GRAPH_DEF_VERSION), and the min_consumer TF's
// Graph._add_function raises a graph's versions to once it holds a function.
constexpr int kGraphDefProducer = 2474;
constexpr int kFunctionMinConsumer = 12;

void put_escaped(std::string& out, const std::string& s, bool bytes) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if ((!bytes && c >= 0x80) || (c >= 0x20 && c < 0x7f)) {
          out += static_cast<char>(c);
        } else {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        }
    }
  }
  out += '"';
}

std::string float_text(double v, bool is_float) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  char buf[40];
  if (is_float) {
    std::snprintf(buf, sizeof buf, "%.6g", v);
    if (std::strtof(buf, nullptr) != static_cast<float>(v))
      std::snprintf(buf, sizeof buf, "%.9g", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.15g", v);
    if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return buf;
}

void print_message(const pb::Message& m, int indent, std::string& out);

void print_value(const pb::Message& m, const pb::FieldDescriptor* f, int index, int indent,
                 std::string& out) {
  const pb::Reflection* r = m.GetReflection();
  const bool rep = f->is_repeated();
  out.append(static_cast<size_t>(indent), ' ');
  out += f->name();
  using T = pb::FieldDescriptor;
  if (f->cpp_type() == T::CPPTYPE_MESSAGE) {
    out += " {\n";
    print_message(rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f), indent + 2, out);
    out.append(static_cast<size_t>(indent), ' ');
    out += "}\n";
    return;
  }
  out += ": ";
  switch (f->cpp_type()) {
    case T::CPPTYPE_INT32:
      out += std::to_string(rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f));
      break;
    case T::CPPTYPE_INT64:
      out += std::to_string(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
      break;
    case T::CPPTYPE_UINT32:
      out += std::to_string(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
      break;
    case T::CPPTYPE_UINT64:
      out += std::to_string(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
      break;
    case T::CPPTYPE_BOOL:
      out += (rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f)) ? "true" : "false";
      break;
    case T::CPPTYPE_FLOAT:
      out += float_text(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f), true);
      break;
    case T::CPPTYPE_DOUBLE:
      out += float_text(rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f), false);
      break;
    case T::CPPTYPE_ENUM: {
      int v = rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
      const pb::EnumValueDescriptor* e = f->enum_type()->FindValueByNumber(v);
      out += e ? std::string(e->name()) : std::to_string(v);
      break;
    }
    case T::CPPTYPE_STRING:
      put_escaped(out, rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f),
                  f->type() == T::TYPE_BYTES);
      break;
    default:
      break;
  }
  out += '\n';
}

// upb prints a map's entries in this order (seen from TF 2.21's printed protos): string keys
// descending by their common prefix, a key that is a prefix of another first ("config" before
// "config_proto", "shape" before "dtype" before "_user_specified_name"); integer keys ascending.
bool upb_text_before(const pb::Message& a, const pb::Message& b) {
  const pb::Descriptor* d = a.GetDescriptor();
  const pb::FieldDescriptor* k = d->map_key();
  const pb::Reflection* r = a.GetReflection();
  using T = pb::FieldDescriptor;
  switch (k->cpp_type()) {
    case T::CPPTYPE_STRING: {
      std::string x = r->GetString(a, k), y = r->GetString(b, k);
      size_t n = std::min(x.size(), y.size());
      int c = std::memcmp(x.data(), y.data(), n);
      if (c != 0) return c > 0;
      return x.size() < y.size();
    }
    case T::CPPTYPE_INT32:
      return r->GetInt32(a, k) < r->GetInt32(b, k);
    case T::CPPTYPE_INT64:
      return r->GetInt64(a, k) < r->GetInt64(b, k);
    case T::CPPTYPE_UINT32:
      return r->GetUInt32(a, k) < r->GetUInt32(b, k);
    case T::CPPTYPE_UINT64:
      return r->GetUInt64(a, k) < r->GetUInt64(b, k);
    case T::CPPTYPE_BOOL:
      return r->GetBool(a, k) < r->GetBool(b, k);
    default:
      return false;
  }
}

void print_message(const pb::Message& m, int indent, std::string& out) {
  const pb::Reflection* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);  // by field number
  for (const pb::FieldDescriptor* f : fields) {
    if (f->is_map()) {
      std::vector<int> order(static_cast<size_t>(r->FieldSize(m, f)));
      for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return upb_text_before(r->GetRepeatedMessage(m, f, a), r->GetRepeatedMessage(m, f, b));
      });
      for (int i : order) print_value(m, f, i, indent, out);
    } else if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) print_value(m, f, i, indent, out);
    } else {
      print_value(m, f, 0, indent, out);
    }
  }
}

// TF's make_tensor_proto writes a one-element numeric tensor in its typed field (float_val: 2.5),
// not as tensor_content; the proto this project writes for SavedModels always uses the latter.
void one_element_as_typed_field(tensorflow::TensorProto& t) {
  const std::string& bytes = t.tensor_content();
  if (bytes.empty()) return;
  int64_t n = 1;
  for (const auto& d : t.tensor_shape().dim()) n *= d.size();
  if (n != 1) return;
  auto read = [&](auto v) {
    std::memcpy(&v, bytes.data(), std::min(sizeof v, bytes.size()));
    return v;
  };
  bool done = true;
  switch (t.dtype()) {
    case tensorflow::DT_FLOAT:
      t.add_float_val(read(float{}));
      break;
    case tensorflow::DT_DOUBLE:
      t.add_double_val(read(double{}));
      break;
    case tensorflow::DT_INT32:
      t.add_int_val(read(int32_t{}));
      break;
    case tensorflow::DT_INT16:
      t.add_int_val(read(int16_t{}));
      break;
    case tensorflow::DT_INT8:
      t.add_int_val(read(int8_t{}));
      break;
    case tensorflow::DT_UINT8:
      t.add_int_val(read(uint8_t{}));
      break;
    case tensorflow::DT_UINT16:
      t.add_int_val(read(uint16_t{}));
      break;
    case tensorflow::DT_INT64:
      t.add_int64_val(read(int64_t{}));
      break;
    case tensorflow::DT_UINT32:
      t.add_uint32_val(read(uint32_t{}));
      break;
    case tensorflow::DT_UINT64:
      t.add_uint64_val(read(uint64_t{}));
      break;
    case tensorflow::DT_BOOL:
      t.add_bool_val(read(uint8_t{}) != 0);
      break;
    case tensorflow::DT_HALF:
    case tensorflow::DT_BFLOAT16:
      t.add_half_val(read(uint16_t{}));
      break;
    default:
      done = false;
  }
  if (done) t.clear_tensor_content();
}

void attrs_as_tf_prints(pb::Map<std::string, tensorflow::AttrValue>& attrs) {
  attrs.erase("_output_shapes");  // as_graph_def() writes no static shapes on nodes
  for (auto& [k, v] : attrs)
    if (v.has_tensor()) one_element_as_typed_field(*v.mutable_tensor());
}

std::string last_component(const std::string& name) {
  size_t slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

// A library function as TF's graph holds it: what the SavedModel form differs in.
void function_as_tf_prints(tensorflow::FunctionDef& fd, const tfs::GraphFunction& fn) {
  for (auto& nd : *fd.mutable_node_def()) attrs_as_tf_prints(*nd.mutable_attr());
  (*fd.mutable_attr())["_construction_context"].set_s("kEagerRuntime");
  for (size_t i = 0; i < fn.args.size(); ++i) {
    auto& a = *(*fd.mutable_arg_attr())[static_cast<uint32_t>(i)].mutable_attr();
    a["_user_specified_name"].set_s(last_component(fn.args[i]->name));
  }
  // Outputs TF names after their nodes, lower-cased ("Identity_1" -> "identity_1").
  auto* sig = fd.mutable_signature();
  pb::Map<std::string, std::string> ret;
  for (auto& od : *sig->mutable_output_arg()) {
    std::string ref = fd.ret().at(od.name());
    std::string name = od.name();
    if (name.rfind("output_", 0) == 0) {
      name = ref.substr(0, ref.find(':'));
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (char& c : name)
        if (c == '/') c = '_';
    }
    od.set_name(name);
    ret[name] = ref;
  }
  *fd.mutable_ret() = ret;
}

// A node as TF's GraphDef holds it: inputs "node" / "node:1", then control inputs "^node" sorted
// by name; its attrs without the static shapes (as_graph_def() adds none).
tensorflow::NodeDef node_def(const tfs::Node& n) {
  tensorflow::NodeDef nd;
  nd.set_name(n.name);
  nd.set_op(n.op());
  for (const auto& i : n.inputs)
    nd.add_input(i.node->name + (i.index ? ":" + std::to_string(i.index) : ""));
  std::vector<std::string> ctrl;
  for (const tfs::Node* c : n.control_inputs) ctrl.push_back(c->name);
  std::sort(ctrl.begin(), ctrl.end());
  for (auto& c : ctrl) nd.add_input("^" + c);
  for (const auto& [k, v] : n.attrs) {
    if (std::holds_alternative<std::monostate>(v)) continue;
    tfs::savedmodel::detail::attr_to_proto(v, &(*nd.mutable_attr())[k]);
  }
  attrs_as_tf_prints(*nd.mutable_attr());
  // TF's FuncGraph names each placeholder's requested name (an argument's, a capture's).
  if (n.op() == "Placeholder" && !nd.attr().count("_user_specified_name"))
    (*nd.mutable_attr())["_user_specified_name"].set_s(last_component(n.name));
  return nd;
}

tensorflow::GraphDef graph_def(const tfs::Graph& g) {
  tensorflow::GraphDef gd;
  for (const auto& n : g.nodes()) *gd.add_node() = node_def(*n);
  tfs::FunctionLibrary lib;
  tfs::savedmodel::detail::collect_library(g, lib);
  for (const auto& [name, f] : lib) {
    tensorflow::FunctionDef& fd = *gd.mutable_library()->add_function();
    fd = tfs::savedmodel::function_def(*f);
    function_as_tf_prints(fd, *f);
  }
  gd.mutable_versions()->set_producer(kGraphDefProducer);
  if (!lib.empty()) gd.mutable_versions()->set_min_consumer(kFunctionMinConsumer);
  return gd;
}

std::string text(const pb::Message& m) {
  std::string out;
  print_message(m, 0, out);
  return out;
}

}  // namespace

void bind_graph_text(nb::module_& m) {
  m.def("graph_def_text",
        [](const tfs::ConcreteFunction& cf) { return text(graph_def(*cf.graph())); });
  m.def("function_type_params", [](const tfs::ConcreteFunction& cf) {
    // (name, kind as inspect numbers it, type constraint repr) per parameter of the trace's type.
    nb::list out;
    for (const auto& p : cf.function_type().params)
      out.append(nb::make_tuple(p.name, static_cast<int>(p.kind), p.type.repr()));
    return out;
  });
  // The NodeDef text of the node `name` in the graph of a symbolic tensor or of a function.
  m.def("node_def_text", [](const tfs::Tensor& t, const std::string& name) {
    if (!t.is_symbolic()) throw nb::attribute_error("node_def of an eager tensor");
    return text(node_def(*t.graph()->find_node(name)));
  });
  m.def("node_def_text", [](const tfs::ConcreteFunction& cf, const std::string& name) {
    return text(node_def(*cf.graph()->find_node(name)));
  });
}

}  // namespace tfpy
