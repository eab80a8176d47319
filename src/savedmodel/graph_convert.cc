#include "graph_convert.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "tfscope/complex.h"

namespace tfs::savedmodel::detail {
namespace {

// The most bytes a tensor read from a file may claim (a fuzzer's 1e12-element shape must fail,
// not allocate).
constexpr int64_t kMaxTensorBytes = int64_t{1} << 31;

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw FormatError("[savedmodel] " + where + ": " + what);
}

int64_t checked_elements(const std::vector<int64_t>& dims, size_t elem_size,
                         const std::string& where) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) fail(where, "tensor has an unknown or negative dimension");
    if (d != 0 && n > kMaxTensorBytes / d) fail(where, "tensor is too large");
    n *= d;
  }
  if (elem_size > 0 && n > kMaxTensorBytes / static_cast<int64_t>(elem_size))
    fail(where, "tensor is too large");
  return n;
}

// Fills `count` elements of `out` from a repeated field as TF does: values in order, the last one
// repeated to fill the rest (zeros when there are none).
template <typename T, typename Field>
void fill_from(const Field& vals, int64_t count, T* out, const std::string& where) {
  if (static_cast<int64_t>(vals.size()) > count)
    fail(where, "tensor has more values than its shape");
  for (int64_t i = 0; i < count; ++i) {
    if (i < vals.size()) {
      out[i] = static_cast<T>(vals.Get(static_cast<int>(i)));
    } else {
      out[i] = vals.empty() ? T{} : static_cast<T>(vals.Get(vals.size() - 1));
    }
  }
}

// scomplex_val / dcomplex_val: (real, imag) pairs, the last pair repeated to fill the shape.
template <typename Field, typename R>
void fill_complex_from(const Field& vals, int64_t count, R* out, const std::string& where) {
  if (vals.size() % 2 != 0) fail(where, "complex tensor has an odd number of values");
  const int64_t pairs = vals.size() / 2;
  if (pairs > count) fail(where, "tensor has more values than its shape");
  for (int64_t i = 0; i < count; ++i) {
    const int64_t k = i < pairs ? i : pairs - 1;
    out[2 * i] = k < 0 ? R(0) : static_cast<R>(vals.Get(static_cast<int>(2 * k)));
    out[2 * i + 1] = k < 0 ? R(0) : static_cast<R>(vals.Get(static_cast<int>(2 * k + 1)));
  }
}

bool valid_arg_char(char c) {
  return std::islower(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '_';
}

// FunctionDef arg names must match [a-z][a-z0-9_]*.
std::string arg_name(const std::string& raw, std::set<std::string>& used) {
  std::string s;
  for (char c : raw) {
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    s += valid_arg_char(l) ? l : '_';
  }
  if (s.empty() || !std::islower(static_cast<unsigned char>(s[0]))) s = "arg_" + s;
  std::string out = s;
  for (int i = 1; used.count(out); ++i) out = s + "_" + std::to_string(i);
  used.insert(out);
  return out;
}

}  // namespace

DType dtype_from_proto(int dt, const std::string& where) {
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
      return static_cast<DType>(dt);
    default:
      fail(where,
           "unsupported dtype " + std::to_string(dt) +
               (tensorflow::DataType_IsValid(dt)
                    ? " (" + tensorflow::DataType_Name(static_cast<tensorflow::DataType>(dt)) + ")"
                    : std::string()));
  }
}

void shape_to_proto(const PartialShape& s, tensorflow::TensorShapeProto* out) {
  out->Clear();
  if (!s.has_rank()) {
    out->set_unknown_rank(true);
    return;
  }
  for (int64_t d : s.dims()) out->add_dim()->set_size(d);
}

PartialShape shape_from_proto(const tensorflow::TensorShapeProto& s, const std::string& where) {
  if (s.unknown_rank()) return PartialShape();
  std::vector<int64_t> dims;
  for (const auto& d : s.dim()) {
    if (d.size() < -1) fail(where, "shape has dimension " + std::to_string(d.size()));
    dims.push_back(d.size());
  }
  return PartialShape(std::move(dims));
}

void tensor_to_proto(const Tensor& t, tensorflow::TensorProto* out) {
  out->set_dtype(static_cast<tensorflow::DataType>(t.dtype()));
  shape_to_proto(t.eager_shape(), out->mutable_tensor_shape());
  if (t.dtype() == DType::kString) {
    for (const auto& s : t.string_values()) out->add_string_val(s);
  } else if (t.dtype() == DType::kResource || t.dtype() == DType::kVariant) {
    throw FormatError("[savedmodel] cannot write a " + std::string(dtype_name(t.dtype())) +
                      " tensor as a constant");
  } else {
    out->set_tensor_content(std::string(static_cast<const char*>(t.raw_data()),
                                        t.num_elements() * tfs::dtype_size(t.dtype())));
  }
}

Tensor tensor_from_proto(const tensorflow::TensorProto& p, const std::string& where) {
  DType dt = dtype_from_proto(p.dtype(), where);
  PartialShape ps = shape_from_proto(p.tensor_shape(), where);
  if (!ps.has_rank()) fail(where, "constant tensor has an unknown shape");
  const size_t elem = tfs::dtype_size(dt);
  int64_t n = checked_elements(ps.dims(), elem == 0 ? 1 : elem, where);
  Shape shape(ps.dims());
  if (dt == DType::kString) {
    std::vector<std::string> v;
    if (p.string_val_size() > n) fail(where, "tensor has more values than its shape");
    for (int64_t i = 0; i < n; ++i) {
      if (i < p.string_val_size()) {
        v.push_back(p.string_val(static_cast<int>(i)));
      } else {
        v.push_back(p.string_val_size() ? p.string_val(p.string_val_size() - 1) : std::string());
      }
    }
    return Tensor::strings(std::move(v), shape);
  }
  if (dt == DType::kResource || dt == DType::kVariant)
    fail(where, std::string(dtype_name(dt)) + " tensors cannot be constants");
  Tensor t = Tensor::zeros(dt, shape);
  if (!p.tensor_content().empty()) {
    if (p.tensor_content().size() != static_cast<size_t>(n) * elem)
      fail(where, "tensor_content has " + std::to_string(p.tensor_content().size()) +
                      " bytes for " + std::to_string(n) + " elements");
    if (n > 0) std::memcpy(t.raw_data(), p.tensor_content().data(), p.tensor_content().size());
    return t;
  }
  if (dt == kComplex64) {
    fill_complex_from(p.scomplex_val(), n, static_cast<float*>(t.raw_data()), where);
    return t;
  }
  if (dt == kComplex128) {
    fill_complex_from(p.dcomplex_val(), n, static_cast<double*>(t.raw_data()), where);
    return t;
  }
  switch (dt) {
    case DType::kFloat32:
      fill_from(p.float_val(), n, t.data<float>(), where);
      break;
    case DType::kFloat64:
      fill_from(p.double_val(), n, t.data<double>(), where);
      break;
    case DType::kInt32:
      fill_from(p.int_val(), n, t.data<int32_t>(), where);
      break;
    case DType::kInt16:
      fill_from(p.int_val(), n, t.data<int16_t>(), where);
      break;
    case DType::kInt8:
      fill_from(p.int_val(), n, t.data<int8_t>(), where);
      break;
    case DType::kUInt8:
      fill_from(p.int_val(), n, t.data<uint8_t>(), where);
      break;
    case DType::kInt64:
      fill_from(p.int64_val(), n, t.data<int64_t>(), where);
      break;
    case DType::kBool:
      fill_from(p.bool_val(), n, t.data<bool>(), where);
      break;
    default:
      fail(where, "unsupported constant dtype");
  }
  return t;
}

BundleTensor tensor_to_bundle(const std::string& key, const Tensor& t) {
  BundleTensor b;
  b.key = key;
  b.dtype = static_cast<int>(t.dtype());
  b.shape = t.eager_shape().dims();
  if (t.dtype() == DType::kString) {
    b.strings = t.string_values();
  } else {
    b.data.assign(static_cast<const char*>(t.raw_data()),
                  t.num_elements() * tfs::dtype_size(t.dtype()));
  }
  return b;
}

Tensor tensor_from_bundle(const BundleTensor& b, const std::string& where) {
  DType dt = dtype_from_proto(b.dtype, where);
  if (dt == DType::kResource) fail(where, "a checkpoint tensor cannot be a resource");
  const size_t elem = tfs::dtype_size(dt);
  int64_t n = checked_elements(b.shape, elem == 0 ? 1 : elem, where);
  Shape shape(b.shape);
  if (dt == DType::kString) {
    if (static_cast<int64_t>(b.strings.size()) != n)
      fail(where, "string count does not match shape");
    return Tensor::strings(b.strings, shape);
  }
  if (b.data.size() != static_cast<size_t>(n) * elem) fail(where, "data size does not match shape");
  Tensor t = Tensor::empty(dt, shape);
  if (n > 0) std::memcpy(t.raw_data(), b.data.data(), b.data.size());
  return t;
}

// ---- export ----

void attr_to_proto(const AttrValue& v, tensorflow::AttrValue* out) {
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, int64_t>) {
          out->set_i(x);
        } else if constexpr (std::is_same_v<T, float>) {
          out->set_f(x);
        } else if constexpr (std::is_same_v<T, bool>) {
          out->set_b(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          out->set_s(x);
        } else if constexpr (std::is_same_v<T, DType>) {
          out->set_type(static_cast<tensorflow::DataType>(x));
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          auto* l = out->mutable_list();
          for (int64_t i : x) l->add_i(i);
        } else if constexpr (std::is_same_v<T, PartialShape>) {
          shape_to_proto(x, out->mutable_shape());
        } else if constexpr (std::is_same_v<T, Tensor>) {
          tensor_to_proto(x, out->mutable_tensor());
        } else if constexpr (std::is_same_v<T, std::vector<DType>>) {
          auto* l = out->mutable_list();
          for (DType d : x) l->add_type(static_cast<tensorflow::DataType>(d));
        } else if constexpr (std::is_same_v<T, FuncAttr>) {
          out->mutable_func()->set_name(x.name);
        } else if constexpr (std::is_same_v<T, std::vector<PartialShape>>) {
          auto* l = out->mutable_list();
          for (const auto& s : x) shape_to_proto(s, l->add_shape());
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          auto* l = out->mutable_list();
          for (const auto& s : x) l->add_s(s);
        }
      },
      v);
}

void attrs_to_proto(const Node& n, google::protobuf::Map<std::string, tensorflow::AttrValue>* out) {
  for (const auto& [k, v] : n.attrs) {
    if (std::holds_alternative<std::monostate>(v)) continue;
    attr_to_proto(v, &(*out)[k]);
  }
  // The static shapes, as TF records them on every node it writes: a reader (ours included) gets
  // them back where its own inference cannot know them (reads of a resource argument).
  if (!n.attrs.count("_output_shapes") && n.num_outputs() > 0) {
    auto* l = (*out)["_output_shapes"].mutable_list();
    for (const auto& s : n.output_shapes) shape_to_proto(s, l->add_shape());
  }
}

namespace {

int arg_count(const ArgDef& a, const AttrMap& attrs) {
  if (!a.number_attr.empty()) return static_cast<int>(attr_int(attrs, a.number_attr));
  if (!a.type_list_attr.empty())
    return static_cast<int>(attr_types(attrs, a.type_list_attr).size());
  return 1;
}

}  // namespace

std::string function_output_ref(const Output& o) {
  const Node& n = *o.node;
  int base = 0;
  for (const ArgDef& a : n.def->outputs) {
    int c = arg_count(a, n.attrs);
    if (o.index < base + c) return n.name + ":" + a.name + ":" + std::to_string(o.index - base);
    base += c;
  }
  throw FormatError("[savedmodel] node " + n.name + " has no output " + std::to_string(o.index));
}

tensorflow::FunctionDef function_to_proto(const GraphFunction& fn) {
  tensorflow::FunctionDef fd;
  auto* sig = fd.mutable_signature();
  sig->set_name(fn.name);
  std::set<std::string> used;
  std::map<const Node*, std::string> args;
  // An argument the function also returns as it is (a while body's passed-through capture):
  // TF gives the output its name and the argument "<name>_0".
  std::set<const Node*> passed_through;
  for (const Output& o : fn.outputs) passed_through.insert(o.node);
  for (size_t i = 0; i < fn.args.size(); ++i) {
    Node* a = fn.args[i];
    std::string raw = i < fn.arg_names.size() ? fn.arg_names[i] : a->name;
    if (passed_through.count(a)) raw += "_0";
    std::string name = arg_name(raw, used);
    args[a] = name;
    auto* ad = sig->add_input_arg();
    ad->set_name(name);
    ad->set_type(static_cast<tensorflow::DataType>(a->output_dtypes[0]));
    if (a->output_shapes[0].has_rank()) {
      auto& shapes =
          (*(*fd.mutable_arg_attr())[static_cast<uint32_t>(i)].mutable_attr())["_output_shapes"];
      shape_to_proto(a->output_shapes[0], shapes.mutable_list()->add_shape());
    }
  }
  auto ref = [&](const Output& o) {
    auto it = args.find(o.node);
    return it != args.end() ? it->second : function_output_ref(o);
  };
  bool stateful = false;
  for (const auto& up : fn.graph->nodes()) {
    const Node& n = *up;
    if (args.count(&n)) continue;
    stateful = stateful || n.def->stateful;
    tensorflow::NodeDef& nd = *fd.add_node_def();
    nd.set_name(n.name);
    nd.set_op(n.op());
    for (const Output& in : n.inputs) nd.add_input(ref(in));
    for (const Node* c : n.control_inputs) nd.add_input("^" + c->name);
    attrs_to_proto(n, nd.mutable_attr());
  }
  for (size_t i = 0; i < fn.outputs.size(); ++i) {
    std::string name = arg_name(i < fn.output_names.size() && !fn.output_names[i].empty()
                                    ? fn.output_names[i]
                                    : "output_" + std::to_string(i),
                                used);
    auto* od = sig->add_output_arg();
    od->set_name(name);
    od->set_type(static_cast<tensorflow::DataType>(
        fn.outputs[i].node->output_dtypes[static_cast<size_t>(fn.outputs[i].index)]));
    (*fd.mutable_ret())[name] = ref(fn.outputs[i]);
  }
  for (const Node* c : fn.control_outputs) {
    if (args.count(c)) continue;
    sig->add_control_output(c->name);
    (*fd.mutable_control_ret())[c->name] = c->name;
  }
  sig->set_is_stateful(stateful || fn.is_stateful);
  return fd;
}

void collect_library(const Graph& g, FunctionLibrary& out) {
  for (const auto& [name, fn] : g.library()) {
    if (out.count(name)) continue;
    out[name] = fn;
    collect_library(*fn->graph, out);
  }
}

// ---- import ----

void refine_output_shapes(Node& n) {
  auto it = n.attrs.find("_output_shapes");
  if (it == n.attrs.end()) return;
  const auto* shapes = std::get_if<std::vector<PartialShape>>(&it->second);
  if (!shapes || shapes->size() != n.output_shapes.size()) return;
  for (size_t i = 0; i < shapes->size(); ++i) {
    if (auto merged = n.output_shapes[i].merge_with((*shapes)[i])) n.output_shapes[i] = *merged;
  }
}

const OpDef& require_op(const std::string& op, const std::string& node, const std::string& file) {
  const OpDef* def = OpRegistry::global().find(op);
  if (!def) fail(file, "unsupported op '" + op + "' (node '" + node + "')");
  return *def;
}

std::vector<const tensorflow::NodeDef*> topological_order(
    const std::vector<const tensorflow::NodeDef*>& nodes,
    const std::function<std::string(const std::string&)>& input_node, const std::string& file) {
  std::map<std::string, const tensorflow::NodeDef*> by_name;
  for (const auto* n : nodes) {
    if (!by_name.emplace(n->name(), n).second)
      fail(file, "duplicate node name '" + n->name() + "'");
  }
  std::vector<const tensorflow::NodeDef*> order;
  std::map<const tensorflow::NodeDef*, int> state;  // 1 visiting, 2 done
  // Iterative DFS: graphs from files can be deep.
  for (const auto* root : nodes) {
    if (state[root] == 2) continue;
    std::vector<std::pair<const tensorflow::NodeDef*, int>> stack{{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (next < n->input_size()) {
        std::string dep = input_node(n->input(next++));
        auto it = by_name.find(dep);
        if (it == by_name.end()) continue;
        int s = state[it->second];
        if (s == 1) fail(file, "graph has a cycle through node '" + dep + "'");
        if (s == 0) {
          state[it->second] = 1;
          stack.push_back({it->second, 0});
        }
        continue;
      }
      state[n] = 2;
      order.push_back(n);
      stack.pop_back();
    }
  }
  return order;
}

AttrMap attrs_from_proto(const tensorflow::NodeDef& nd, const OpDef& def, FunctionImporter& fns) {
  const std::string where = fns.file() + ": node '" + nd.name() + "'";
  std::set<std::string> list_type_attrs;
  for (const auto* args : {&def.inputs, &def.outputs})
    for (const ArgDef& a : *args)
      if (!a.type_list_attr.empty()) list_type_attrs.insert(a.type_list_attr);
  AttrMap out;
  for (const auto& [k, v] : nd.attr()) {
    switch (v.value_case()) {
      case tensorflow::AttrValue::kS:
        out[k] = v.s();
        break;
      case tensorflow::AttrValue::kI:
        out[k] = static_cast<int64_t>(v.i());
        break;
      case tensorflow::AttrValue::kF:
        out[k] = v.f();
        break;
      case tensorflow::AttrValue::kB:
        out[k] = v.b();
        break;
      case tensorflow::AttrValue::kType:
        out[k] = dtype_from_proto(v.type(), where + " attr " + k);
        break;
      case tensorflow::AttrValue::kShape:
        out[k] = shape_from_proto(v.shape(), where);
        break;
      case tensorflow::AttrValue::kTensor:
        out[k] = tensor_from_proto(v.tensor(), where);
        break;
      case tensorflow::AttrValue::kFunc:
        fns.get(v.func().name());
        out[k] = FuncAttr{v.func().name()};
        break;
      case tensorflow::AttrValue::kPlaceholder:
        fail(where, "attr " + k + " is a function placeholder ($" + v.placeholder() + ")");
      case tensorflow::AttrValue::kList: {
        const auto& l = v.list();
        if (l.type_size() > 0 ||
            (l.shape_size() == 0 && l.i_size() == 0 && list_type_attrs.count(k))) {
          std::vector<DType> ts;
          for (int t : l.type()) ts.push_back(dtype_from_proto(t, where + " attr " + k));
          out[k] = std::move(ts);
        } else if (l.shape_size() > 0 || k.find("shapes") != std::string::npos) {
          std::vector<PartialShape> ss;
          for (const auto& s : l.shape()) ss.push_back(shape_from_proto(s, where));
          out[k] = std::move(ss);
        } else if (l.i_size() > 0 || (l.s_size() == 0 && l.f_size() == 0 && l.b_size() == 0 &&
                                      l.func_size() == 0 && l.tensor_size() == 0)) {
          out[k] = std::vector<int64_t>(l.i().begin(), l.i().end());
        } else if (l.s_size() > 0 && k[0] != '_' && k != "allowed_devices") {
          out[k] = std::vector<std::string>(l.s().begin(), l.s().end());
        }
        // Lists of floats, bools, tensors or functions, and TF's own string lists ("_class",
        // "allowed_devices"): no tfscope op reads one; dropped.
        break;
      }
      case tensorflow::AttrValue::VALUE_NOT_SET:
        break;
    }
  }
  return out;
}

FunctionImporter::FunctionImporter(const tensorflow::FunctionDefLibrary& lib, std::string file,
                                   std::shared_ptr<FunctionLibrary> out)
    : lib_(lib), file_(std::move(file)), out_(std::move(out)) {
  for (const auto& f : lib_.function()) defs_[f.signature().name()] = &f;
}

namespace {

// "node:arg:3" / "node" / "arg" / "^node" split into (node or arg, output arg, index).
struct FunctionInput {
  std::string node;
  std::string arg;  // empty: a function argument (or output 0)
  int index = 0;
  bool control = false;
};

FunctionInput parse_function_input(const std::string& s, const std::string& where) {
  FunctionInput r;
  if (!s.empty() && s[0] == '^') {
    r.control = true;
    r.node = s.substr(1);
    return r;
  }
  size_t a = s.find(':');
  r.node = s.substr(0, a);
  if (a == std::string::npos) return r;
  size_t b = s.find(':', a + 1);
  if (b == std::string::npos) {
    // "arg:0" is not TF's form, but accept a bare index.
    r.arg.clear();
    try {
      r.index = std::stoi(s.substr(a + 1));
    } catch (...) {
      fail(where, "bad input '" + s + "'");
    }
    return r;
  }
  r.arg = s.substr(a + 1, b - a - 1);
  try {
    size_t used = 0;
    r.index = std::stoi(s.substr(b + 1), &used);
    if (used != s.size() - b - 1 || r.index < 0) throw 0;
  } catch (...) {
    fail(where, "bad input '" + s + "'");
  }
  return r;
}

int flat_output_index(const Node& n, const std::string& arg, int index, const std::string& where) {
  int base = 0;
  for (const ArgDef& a : n.def->outputs) {
    int c = arg_count(a, n.attrs);
    if (a.name == arg) {
      if (index >= c) break;
      return base + index;
    }
    base += c;
  }
  // Our OpDef names the output differently: a single-output-arg op still has one answer.
  if (n.def->outputs.size() == 1 && index < n.num_outputs()) return index;
  fail(where, "node '" + n.name + "' has no output " + arg + ":" + std::to_string(index));
}

}  // namespace

std::shared_ptr<const GraphFunction> FunctionImporter::get(const std::string& name) {
  if (auto it = out_->find(name); it != out_->end()) return it->second;
  auto d = defs_.find(name);
  if (d == defs_.end()) fail(file_, "function '" + name + "' is not in the library");
  if (in_progress_[name]++) fail(file_, "function '" + name + "' calls itself");
  const tensorflow::FunctionDef& fd = *d->second;
  const std::string where = file_ + ": function '" + name + "'";

  auto fn = std::make_shared<GraphFunction>();
  fn->name = name;
  fn->graph = std::make_shared<Graph>(name);
  Graph& g = *fn->graph;
  fn->is_stateful = fd.signature().is_stateful();
  std::map<std::string, Node*> nodes;  // args and body nodes by name
  const OpDef& ph = OpRegistry::global().get("Placeholder");
  for (int i = 0; i < fd.signature().input_arg_size(); ++i) {
    const auto& a = fd.signature().input_arg(i);
    if (!a.type_attr().empty() || !a.number_attr().empty() || !a.type_list_attr().empty())
      fail(where, "argument " + a.name() + " is polymorphic; only instantiated functions load");
    DType dt = dtype_from_proto(a.type(), where);
    PartialShape shape;
    if (auto aa = fd.arg_attr().find(static_cast<uint32_t>(i)); aa != fd.arg_attr().end()) {
      auto s = aa->second.attr().find("_output_shapes");
      if (s != aa->second.attr().end() && s->second.list().shape_size() == 1)
        shape = shape_from_proto(s->second.list().shape(0), where);
    }
    if (dt == DType::kResource)
      shape = PartialShape(std::vector<int64_t>{});  // a handle is a scalar
    if (nodes.count(a.name())) fail(where, "duplicate argument " + a.name());
    Node* n = g.add_node_raw(ph, a.name(), {}, {{"dtype", dt}, {"shape", shape}}, {dt}, {shape});
    nodes[a.name()] = n;
    fn->args.push_back(n);
    fn->arg_names.push_back(a.name());
  }
  std::vector<const tensorflow::NodeDef*> body;
  for (const auto& nd : fd.node_def()) {
    if (nodes.count(nd.name())) fail(where, "node '" + nd.name() + "' shadows an argument");
    body.push_back(&nd);
  }
  auto dep = [](const std::string& s) {
    std::string r = s[0] == '^' ? s.substr(1) : s;
    return r.substr(0, r.find(':'));
  };
  auto resolve = [&](const std::string& s, const std::string& at) -> Output {
    FunctionInput in = parse_function_input(s, at);
    auto it = nodes.find(in.node);
    if (it == nodes.end()) fail(at, "input '" + s + "' names no node");
    Node* n = it->second;
    if (in.arg.empty()) {
      if (in.index >= n->num_outputs()) fail(at, "input '" + s + "' is out of range");
      return {n, in.index};
    }
    return {n, flat_output_index(*n, in.arg, in.index, at)};
  };
  for (const auto* nd : topological_order(body, dep, where)) {
    const std::string at = where + " node '" + nd->name() + "'";
    const OpDef& def = require_op(nd->op(), nd->name(), file_);
    AttrMap attrs = attrs_from_proto(*nd, def, *this);
    std::vector<Output> inputs;
    std::vector<Node*> controls;
    for (const auto& s : nd->input()) {
      if (s.empty()) fail(at, "empty input");
      if (s[0] == '^') {
        auto it = nodes.find(s.substr(1));
        if (it == nodes.end()) fail(at, "control input '" + s + "' names no node");
        controls.push_back(it->second);
      } else {
        inputs.push_back(resolve(s, at));
      }
    }
    Node* n = nullptr;
    try {
      n = g.add_node(nd->op(), nd->name() + "/", std::move(inputs), std::move(attrs), controls);
    } catch (const FormatError&) {
      throw;
    } catch (const std::exception& e) {
      std::string msg = e.what();
      fail(at, msg.substr(0, msg.find('\n')));
    }
    refine_output_shapes(*n);
    nodes[nd->name()] = n;
  }
  for (const auto& out : fd.signature().output_arg()) {
    auto r = fd.ret().find(out.name());
    if (r == fd.ret().end()) fail(where, "output " + out.name() + " has no return value");
    fn->outputs.push_back(resolve(r->second, where));
    fn->output_names.push_back(out.name());
  }
  for (const auto& c : fd.signature().control_output()) {
    auto r = fd.control_ret().find(c);
    auto it = nodes.find(r == fd.control_ret().end() ? c : r->second);
    if (it == nodes.end()) fail(where, "control output " + c + " names no node");
    fn->control_outputs.push_back(it->second);
  }
  // Bodies this function calls go into its graph's library too (reports list them).
  for (const auto& up : g.nodes())
    for (const auto& [k, v] : up->attrs)
      if (const auto* f = std::get_if<FuncAttr>(&v)) g.add_function(out_->at(f->name));
  (*out_)[name] = fn;
  in_progress_[name]--;
  return fn;
}

}  // namespace tfs::savedmodel::detail

namespace tfs::savedmodel {

tensorflow::FunctionDef function_def(const GraphFunction& fn) {
  return detail::function_to_proto(fn);
}

}  // namespace tfs::savedmodel
