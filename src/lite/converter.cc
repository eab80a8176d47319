// ConcreteFunction -> LiteModel, as TF 2.21's TFLiteConverter lowers the same graph: variables
// and captured tensors are frozen to constants, constant subgraphs are folded, MatMul with a
// constant right operand becomes FULLY_CONNECTED (weights transposed to [units, depth]) with a
// following bias add and Relu/Relu6 fused in, and every tensor is named after the graph nodes it
// came from (fused names joined with ';' in MLIR's order, as its fused locations print; equal
// constants folded into one "arith.constant"). The ops are lowered in the order TF's graph
// importer gives them (reverse_post_order), which is the order TF's converter writes them in.
// Conv2D / DepthwiseConv2dNative become CONV_2D / DEPTHWISE_CONV_2D (bias and Relu/Relu6 fused
// likewise, a zero bias when there is none), MaxPool / AvgPool become MAX_POOL_2D /
// AVERAGE_POOL_2D (Relu/Relu6 fused).
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "lite_model.h"
#include "tfscope/function.h"
#include "tfscope/lite.h"
#include "tfscope/variable_state.h"

namespace tfs::lite {
namespace {

using detail::LiteModel;
using detail::LiteOp;
using detail::LiteTensor;
using tflite::BuiltinOperator;

[[noreturn]] void fail(const std::string& what) {
  throw FormatError("[lite] convert: " + what);
}

std::string join_names(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ";") + n;
  return out;
}

// An MLIR fused location as TF's converter prints it: the names in the given order, each once.
std::string fused_location(const std::vector<std::string>& names) {
  std::string out;
  std::set<std::string> seen;
  for (const std::string& n : names) {
    if (seen.insert(n).second) out += (out.empty() ? "" : ";") + n;
  }
  return out;
}

tflite::TensorType lite_type(DType d, const std::string& where) {
  switch (d) {
    case DType::kFloat32:
      return tflite::TensorType_FLOAT32;
    case DType::kInt32:
      return tflite::TensorType_INT32;
    case DType::kInt64:
      return tflite::TensorType_INT64;
    case DType::kBool:
      return tflite::TensorType_BOOL;
    default:
      fail("unsupported dtype " + std::string(dtype_name(d)) + " of " + where);
  }
}

// Nodes of inlined function bodies live in other graphs, whose node ids overlap: order by
// identity.
struct OutputLess {
  bool operator()(const Output& a, const Output& b) const {
    return std::make_pair(static_cast<const void*>(a.node), a.index) <
           std::make_pair(static_cast<const void*>(b.node), b.index);
  }
};

class Converter {
 public:
  Converter(const detail::GraphSource& src, const ConvertOptions& options)
      : src_(src), dynamic_range_(options.dynamic_range) {
    model_.signature_key = options.signature_key;
  }

  LiteModel run() {
    add_inputs();
    lower_body(*src_.fn);
    add_outputs();
    return std::move(model_);
  }

 private:
  // ---- graph analysis ----
  void index_graph(const GraphFunction& fn) {
    for (const auto& node : fn.graph->nodes()) {
      for (size_t i = 0; i < node->inputs.size(); ++i) {
        consumers_[node->inputs[i].node].push_back(node.get());
      }
    }
    for (const Output& o : fn.outputs) graph_outputs_.insert(o.node);
    std::vector<Node*> stack;
    for (const Output& o : fn.outputs) stack.push_back(o.node);
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      if (!live_.insert(n).second) continue;
      for (const Output& in : n->inputs) stack.push_back(in.node);
    }
  }

  // The nodes the outputs need at run time: the walk back from the outputs stops at constants, so
  // a node only constant-folded values read (tf.shape(x) when only a static dimension of it is
  // used) is not written, as TF's converter drops it.
  void mark_needed(const GraphFunction& fn) {
    std::vector<Node*> stack;
    for (const Output& o : fn.outputs) stack.push_back(o.node);
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      if (!needed_.insert(n).second) continue;
      if (n->num_outputs() > 0 && is_const(Output{n, 0})) continue;
      for (const Output& in : n->inputs) stack.push_back(in.node);
    }
  }

  // The order TF's graph importer gives the ops (and so the order of the operators TF's converter
  // writes): a reverse post-order of a depth-first walk from the nodes without inputs, each
  // node's consumers (data and control edges) pushed in name order, so that of two branches the
  // one whose first node has the smaller name comes first (TF's GetReversePostOrder with a
  // by-name comparator).
  static std::vector<Node*> reverse_post_order(const GraphFunction& fn) {
    std::map<const Node*, std::vector<Node*>> out;
    std::vector<Node*> sources;
    for (const auto& node : fn.graph->nodes()) {
      Node* n = node.get();
      for (const Output& in : n->inputs) out[in.node].push_back(n);
      for (Node* c : n->control_inputs) out[c].push_back(n);
      if (n->inputs.empty() && n->control_inputs.empty()) sources.push_back(n);
    }
    auto by_name = [](const Node* a, const Node* b) { return a->name < b->name; };
    std::sort(sources.begin(), sources.end(), by_name);
    std::vector<std::pair<Node*, bool>> stack;  // (node, leaving)
    for (Node* s : sources) stack.emplace_back(s, false);
    std::set<const Node*> visited;
    std::vector<Node*> order;
    while (!stack.empty()) {
      auto [n, leaving] = stack.back();
      stack.pop_back();
      if (leaving) {
        order.push_back(n);
        continue;
      }
      if (!visited.insert(n).second) continue;
      stack.emplace_back(n, true);
      std::vector<Node*> next = out[n];
      std::sort(next.begin(), next.end(), by_name);
      for (Node* c : next) {
        if (!visited.count(c)) stack.emplace_back(c, false);
      }
    }
    std::reverse(order.begin(), order.end());
    return order;
  }

  // Lowers the live nodes of a function body in TF's import order (the top-level function, or
  // the body of a PartitionedCall, inlined).
  void lower_body(const GraphFunction& fn) {
    index_graph(fn);
    count_const_values(fn);
    count_conv_depths(fn);
    match_gelu(fn);
    match_div_sqrt(fn);
    mark_needed(fn);
    for (Node* n : reverse_post_order(fn)) {
      if (!needed_.count(n) || absorbed_.count(n) || alias_.count(Output{n, 0})) continue;
      if (n->op() == "Placeholder" || n->op() == "VarHandleOp") continue;  // inputs, resources
      if (n->num_outputs() > 0 && is_const(Output{n, 0})) continue;
      lower(n);
    }
  }

  void lower_call(Node* n) {
    const std::string& f = attr_func(n->attrs, "f").name;
    const GraphFunction* body = nullptr;
    auto it = src_.library ? src_.library->find(f) : FunctionLibrary::const_iterator{};
    if (src_.library && it != src_.library->end()) body = it->second.get();
    if (!body) body = src_.fn->graph->find_function(f);
    if (!body) fail("function " + f + " called by " + n->name + " is not in the library");
    if (body->args.size() != n->inputs.size()) fail("call " + n->name + ": argument count");
    if (!inlining_.insert(body).second) {
      fail("function " + f + " is called more than once; inlining it twice is not supported");
    }
    for (size_t i = 0; i < body->args.size(); ++i) {
      alias_[Output{body->args[i], 0}] = resolve(n->inputs[i]);
    }
    lower_body(*body);
    for (size_t i = 0; i < body->outputs.size(); ++i) {
      alias_[Output{n, static_cast<int>(i)}] = resolve(body->outputs[i]);
    }
  }

  std::shared_ptr<VariableState> variable_of(Node* handle) {
    auto it = src_.resources.find(handle);
    if (it != src_.resources.end()) return it->second;
    if (handle->op() == "VarHandleOp" && src_.variables_by_name) {
      const std::string& shared = attr_string(handle->attrs, "shared_name");
      auto v = src_.variables_by_name->find(shared);
      if (v != src_.variables_by_name->end()) return v->second;
    }
    return nullptr;
  }

  // The constant value of an output, when it depends on no argument.
  const Tensor* const_value(const Output& o) {
    auto it = consts_.find(o);
    if (it != consts_.end()) return it->second ? &*it->second : nullptr;
    std::optional<Tensor> v = fold(o);
    auto& slot = consts_[o];
    slot = std::move(v);
    return slot ? &*slot : nullptr;
  }
  bool is_const(const Output& o) { return const_value(o) != nullptr; }

  std::optional<Tensor> fold(const Output& o) {
    Node* n = o.node;
    const std::string& op = n->op();
    if (op == "Const") return attr_tensor(n->attrs, "value");
    if (op == "Placeholder") {
      auto it = src_.tensors.find(n);
      if (it == src_.tensors.end()) return std::nullopt;
      return it->second;
    }
    if (op == "ReadVariableOp") {
      auto state = variable_of(resolve(n->inputs[0]).node);
      if (!state) return std::nullopt;
      return state->read();
    }
    if (op == "PartitionedCall" || op == "StatefulPartitionedCall") return std::nullopt;
    if (op == "StridedSlice") {
      if (std::optional<Tensor> d = static_dim_of_shape(n)) return d;
    }
    if (n->def->stateful || !n->def->kernel || n->inputs.empty()) return std::nullopt;
    std::vector<Tensor> inputs;
    for (const Output& in : n->inputs) {
      const Tensor* v = const_value(resolve(in));
      if (!v) return std::nullopt;
      inputs.push_back(*v);
    }
    try {
      std::vector<Tensor> outs = execute(op, inputs, n->attrs, n->name);
      return outs.at(static_cast<size_t>(o.index));
    } catch (const std::exception&) {
      return std::nullopt;  // not foldable here (a function call, ...): lowered as an op
    }
  }

  // Pack(tf.shape(x)[0], d1, ..., dn) of every dimension of x in order, each either that
  // dimension's slice of one Shape(x) or x's static size there: Shape(x) itself.
  std::optional<Output> pack_of_whole_shape(Node* n) {
    std::optional<Output> shape;
    const Output* x = nullptr;
    if (attr_int(n->attrs, "axis") != 0) return std::nullopt;
    for (size_t k = 0; k < n->inputs.size(); ++k) {
      Output in = resolve(n->inputs[k]);
      if (is_const(in)) continue;  // checked below against the static shape of x
      if (in.node->op() != "StridedSlice" || attr_int(in.node->attrs, "shrink_axis_mask") != 1) {
        return std::nullopt;
      }
      Output s = resolve(in.node->inputs[0]);
      const Tensor* b = const_value(resolve(in.node->inputs[1]));
      if (s.node->op() != "Shape" || !b || b->num_elements() != 1 ||
          cast(*b, DType::kInt64).data<int64_t>()[0] != static_cast<int64_t>(k) ||
          (shape && !(resolve(*shape) == s))) {
        return std::nullopt;
      }
      shape = s;
      x = &s.node->inputs[0];
    }
    if (!shape) return std::nullopt;
    const PartialShape& xs = x->node->output_shapes[static_cast<size_t>(x->index)];
    if (!xs.has_rank() || static_cast<size_t>(xs.rank()) != n->inputs.size()) return std::nullopt;
    for (size_t k = 0; k < n->inputs.size(); ++k) {
      const Tensor* c = const_value(resolve(n->inputs[k]));
      if (!c) continue;
      if (c->num_elements() != 1 ||
          cast(*c, DType::kInt64).data<int64_t>()[0] != xs.dim(static_cast<int>(k))) {
        return std::nullopt;
      }
    }
    return shape;
  }

  // tf.shape(x)[k] where x's dimension k is static: that number (TF's converter folds it; the
  // batch dimension stays SHAPE + STRIDED_SLICE).
  std::optional<Tensor> static_dim_of_shape(Node* n) {
    Output src = resolve(n->inputs[0]);
    if (src.node->op() != "Shape" || attr_int(n->attrs, "shrink_axis_mask") != 1 ||
        attr_int(n->attrs, "new_axis_mask") != 0 || attr_int(n->attrs, "ellipsis_mask") != 0) {
      return std::nullopt;
    }
    const Tensor* b = const_value(resolve(n->inputs[1]));
    if (!b || b->num_elements() != 1) return std::nullopt;
    const int64_t k = cast(*b, DType::kInt64).data<int64_t>()[0];
    const Output x = src.node->inputs[0];
    const PartialShape& s = x.node->output_shapes[static_cast<size_t>(x.index)];
    if (!s.has_rank() || k < 0 || k >= s.rank() || s.dim(static_cast<int>(k)) < 0) {
      return std::nullopt;
    }
    const int64_t d = s.dim(static_cast<int>(k));
    if (src.node->output_dtypes[0] == DType::kInt64) return Tensor::scalar<int64_t>(d);
    return Tensor::scalar<int32_t>(static_cast<int32_t>(d));
  }

  // The single live consumer of a node's only output, if it has exactly one.
  Node* sole_consumer(Node* n) {
    auto it = consumers_.find(n);
    if (it == consumers_.end() || it->second.size() != 1) return nullptr;
    Node* c = it->second[0];
    if (!live_.count(c) || graph_outputs_.count(n)) return nullptr;
    return c;
  }

  // ---- tensors ----
  static void set_shape(LiteTensor& t, const PartialShape& s) {
    if (!s.has_rank()) {
      t.shape_unknown = true;
      return;
    }
    bool dynamic = false;
    for (int i = 0; i < s.rank(); ++i) {
      int64_t d = s.dim(i);
      t.shape.push_back(d < 0 ? 1 : static_cast<int32_t>(d));
      t.shape_signature.push_back(static_cast<int32_t>(d));
      dynamic |= d < 0;
    }
    if (!dynamic) t.shape_signature.clear();
    // The graph's shapes may be partial where TF's are static; infer_shapes() settles them.
    t.shape_unknown = dynamic;
  }

  int32_t activation_tensor(Node* n, int index, const std::string& name) {
    LiteTensor t;
    t.name = name;
    t.type = lite_type(n->output_dtypes[static_cast<size_t>(index)], n->name);
    set_shape(t, n->output_shapes[static_cast<size_t>(index)]);
    int32_t id = model_.add_tensor(std::move(t));
    tensor_of_[Output{n, index}] = id;
    return id;
  }

  int32_t const_tensor(const Tensor& v, const std::string& name, bool as_int32 = false,
                       bool merge_floats = false) {
    LiteTensor t;
    t.name = name;
    t.is_const = true;
    Tensor value = v;
    if (as_int32 && v.dtype() == DType::kInt64) value = cast(v, DType::kInt32);
    t.type = lite_type(value.dtype(), name);
    for (int64_t d : value.eager_shape().dims()) t.shape.push_back(static_cast<int32_t>(d));
    t.data.assign(static_cast<const char*>(value.raw_data()), value.nbytes());
    // Equal integer constants (shapes, axes, slice bounds) are one tensor, as MLIR folds them,
    // and so are equal float constants of the graph (`merge_floats`; weights stay apart: the
    // quantizer rewrites them in place). A constant that several nodes gave loses their names:
    // MLIR's folder gives the one it keeps an unknown location, which TF's converter writes as
    // the op's name, "arith.constant".
    if (t.type == tflite::TensorType_INT32 || merge_floats) {
      auto key = std::make_tuple(t.type, t.shape, t.data);
      auto it = equal_consts_.find(key);
      if (it == equal_consts_.end()) {
        const int32_t id = model_.add_tensor(std::move(t));
        equal_consts_[key] = {id, name};
        return id;
      }
      auto& [id, first_name] = it->second;
      if (first_name != name && first_name != "arith.constant") {
        first_name = "arith.constant";
        LiteTensor& kept = model_.tensors[static_cast<size_t>(id)];
        kept.name.clear();  // its old name is free again
        kept.name = model_.unique_name(first_name);
      }
      return id;
    }
    return model_.add_tensor(std::move(t));
  }

  // The lite tensor holding a graph value: an activation, an argument, or a constant.
  int32_t tensor(const Output& o, bool as_int32 = false) {
    Output src = resolve(o);
    auto it = tensor_of_.find(src);
    if (it != tensor_of_.end()) return it->second;
    const Tensor* v = const_value(src);
    if (!v) fail("internal: no tensor for " + src.node->name);
    int32_t id = const_tensor(*v, const_name(src, *v), as_int32, /*merge_floats=*/true);
    tensor_of_[src] = id;
    return id;
  }

  // A graph constant's name: its node's, or "arith.constant" when MLIR folded it with an equal
  // one (const_value_count_).
  std::string const_name(const Output& src, const Tensor& v) {
    return const_value_count_[value_key(v)] > 1 ? "arith.constant" : src.node->name;
  }

  // MLIR's first canonicalization folds equal constants into one, named "arith.constant" from
  // then on (an unknown location), even when the users of the others are folded away later:
  // BERT's tf.shape(x)[0] loses the name of its begin [0] to the folded begin Pack([0]) of the
  // position table's slice [:length], and its last layer's reshape to [batch, length, 128] the
  // 128 to the unused reshapes of the other layers. How many nodes of the graph (live or not:
  // the import keeps them) hold each constant value
  // that folds from constants alone (a Const, a frozen variable read, an op of those; an
  // Identity is its input's value). A static dimension of tf.shape(x) folds only later and
  // keeps its name (BERT's tf.shape(x)[1], "strided_slice_3", beside another 16).
  static std::tuple<DType, std::vector<int64_t>, std::string> value_key(const Tensor& v) {
    return {v.dtype(), v.eager_shape().dims(),
            std::string(static_cast<const char*>(v.raw_data()), v.nbytes())};
  }
  bool folds_from_consts(Node* n) {
    if (n->op() == "Const" || n->op() == "ReadVariableOp") return true;
    if (n->op() == "Placeholder") return is_const(Output{n, 0});  // a captured tensor, frozen
    if (n->op() == "Shape" || n->inputs.empty()) return false;
    auto memo = folds_from_consts_.find(n);
    if (memo != folds_from_consts_.end()) return memo->second;
    bool all = true;
    for (const Output& in : n->inputs) all = all && folds_from_consts(resolve(in).node);
    return folds_from_consts_[n] = all;
  }
  void count_const_values(const GraphFunction& fn) {
    for (const auto& node : fn.graph->nodes()) {
      Node* n = node.get();
      const std::string& op = n->op();
      if (n->num_outputs() != 1 || op == "Identity" || op == "Snapshot" || op == "StopGradient" ||
          op == "IdentityN") {
        continue;
      }
      const Tensor* v = const_value(Output{n, 0});
      if (!v || v->dtype() == DType::kString || v->dtype() == DType::kVariant ||
          v->dtype() == DType::kResource || !folds_from_consts(n)) {
        continue;
      }
      ++const_value_count_[value_key(*v)];
    }
  }

  // Follows Identity nodes back to the value they forward.
  Output resolve(Output o) {
    for (;;) {
      const std::string& op = o.node->op();
      if (op == "Identity" || op == "Snapshot" || op == "StopGradient" || op == "IdentityN") {
        o = o.node->inputs[static_cast<size_t>(op == "IdentityN" ? o.index : 0)];
        continue;
      }
      auto a = alias_.find(o);
      if (a == alias_.end()) return o;
      o = a->second;  // a fused node: its value is the fusing op's output
    }
  }

  std::vector<int> const_ints(const Output& o, const std::string& what) {
    const Tensor* v = const_value(resolve(o));
    if (!v) fail(what + " must be a constant");
    std::vector<int> out;
    Tensor i32 = v->dtype() == DType::kInt32 ? *v : cast(*v, DType::kInt32);
    for (int64_t i = 0; i < i32.num_elements(); ++i) out.push_back(i32.data<int32_t>()[i]);
    return out;
  }

  // ---- lowering ----
  void add_inputs() {
    for (size_t i = 0; i < src_.inputs.size(); ++i) {
      Node* p = src_.inputs[i];
      const std::string& key = src_.input_keys[i];
      int32_t id = activation_tensor(p, 0, model_.signature_key + "_" + key + ":0");
      model_.tensors[static_cast<size_t>(id)].shape_unknown = false;
      model_.inputs.push_back(id);
      model_.signature_inputs.emplace_back(key, id);
    }
  }

  void add_outputs() {
    const std::vector<std::string>& keys = src_.output_keys;
    const auto& outputs = src_.fn->outputs;
    for (size_t i = 0; i < outputs.size(); ++i) {
      Output src = resolve(outputs[i]);
      auto it = tensor_of_.find(src);
      if (it == tensor_of_.end() || model_.tensors[static_cast<size_t>(it->second)].is_const) {
        fail("output " + std::to_string(i) + " is a constant or an input; nothing to convert");
      }
      int32_t id = it->second;
      model_.tensors[static_cast<size_t>(id)].name = "StatefulPartitionedCall:" + std::to_string(i);
      model_.outputs.push_back(id);
      std::string key = i < keys.size() ? keys[i] : "output_" + std::to_string(i);
      model_.signature_outputs.emplace_back(key, id);
    }
  }

  // Fuses a following Relu/Relu6 into `op` (one consumer only); returns the node whose output
  // the op now produces.
  Node* fuse_activation(Node* last, LiteOp& op, std::set<std::string>& names) {
    Node* c = sole_consumer(last);
    if (!c) return last;
    if (c->op() == "Relu")
      op.activation = tflite::ActivationFunctionType_RELU;
    else if (c->op() == "Relu6")
      op.activation = tflite::ActivationFunctionType_RELU6;
    else
      return last;
    absorbed_.insert(c);
    names.insert(c->name);
    alias_[Output{c, 0}] = Output{last, 0};
    return c;
  }

  void emit(LiteOp op, Node* out_node, const std::string& name) {
    op.outputs = {activation_tensor(out_node, 0, name)};
    model_.ops.push_back(std::move(op));
  }

  // tf.nn.gelu(approximate=False) as tfs::gelu builds it (TF's ops):
  //   Mul(Mul(0.5, x), Erfc(Mul(Neg(x), 0.7071...)))
  // becomes one GELU op, as TF's converter legalizes it. Each inner node must feed only the next.
  bool const_near(const Output& o, double want) {
    const Tensor* v = const_value(resolve(o));
    if (!v || v->num_elements() != 1) return false;
    Tensor d = cast(*v, DType::kFloat64);
    return std::abs(d.data<double>()[0] - want) < 1e-6;
  }
  void match_gelu(const GraphFunction& fn) {
    for (const auto& node : fn.graph->nodes()) {
      Node* e = node.get();
      if (!live_.count(e) || e->op() != "Erfc") continue;
      Node* scaled = e->inputs[0].node;
      if (scaled->op() != "Mul" || sole_consumer(scaled) != e) continue;
      Node* neg = scaled->inputs[0].node;
      if (neg->op() != "Neg" || sole_consumer(neg) != scaled ||
          !const_near(scaled->inputs[1], 0.7071067811865476)) {
        continue;
      }
      Node* f = sole_consumer(e);
      if (!f || f->op() != "Mul" || f->inputs[1].node != e) continue;
      Node* half = f->inputs[0].node;
      if (half->op() != "Mul" || sole_consumer(half) != f || !const_near(half->inputs[0], 0.5))
        continue;
      Output x = half->inputs[1];
      if (!(resolve(x) == resolve(neg->inputs[0]))) continue;
      for (Node* inner : {half, neg, scaled, e}) absorbed_.insert(inner);
      // The GELU's fused location, in MLIR's order (with an empty name second).
      gelu_[f] = {x, fused_location({f->name, ""}) + ";" +
                         fused_location({half->name, neg->name, scaled->name, e->name})};
    }
  }

  // x / tf.sqrt(v) (a layer norm) becomes RSQRT(v) and MUL, as TF's converter rewrites it; the
  // Sqrt must feed only the division.
  void match_div_sqrt(const GraphFunction& fn) {
    for (const auto& node : fn.graph->nodes()) {
      Node* d = node.get();
      if (!live_.count(d) || d->op() != "RealDiv") continue;
      Node* sq = resolve(d->inputs[1]).node;
      if (sq->op() != "Sqrt" || sole_consumer(sq) != d || is_const(Output{sq, 0})) continue;
      absorbed_.insert(sq);
      sqrt_of_[d] = sq;
    }
  }

  void lower_div_sqrt(Node* n) {
    Node* sq = sqrt_of_.at(n);
    const std::string name = n->name + ";" + sq->name;  // MLIR's order: the division first
    LiteOp r;
    r.code = tflite::BuiltinOperator_RSQRT;
    r.inputs = {tensor(sq->inputs[0])};
    emit(std::move(r), sq, name);
    LiteOp l;
    l.code = tflite::BuiltinOperator_MUL;
    l.inputs = {tensor(n->inputs[0]), model_.ops.back().outputs[0]};
    std::set<std::string> names = {name};
    Node* last = fuse_activation(n, l, names);
    emit(std::move(l), last, join_names(names));
    tensor_of_[Output{n, 0}] = model_.ops.back().outputs[0];
  }

  // tf.gather of a constant table (a variable read, frozen) on axis 0: GATHER. The table is named
  // after the gather, the output after its fused location (the gather and an empty name:
  // "Gather;").
  void lower_gather(Node* n) {
    std::optional<Tensor> table;
    if (n->op() == "ResourceGather") {
      if (attr_int(n->attrs, "batch_dims") != 0) fail("ResourceGather " + n->name + ": batch_dims");
      auto state = variable_of(resolve(n->inputs[0]).node);
      if (!state) fail("ResourceGather " + n->name + ": its variable is not known");
      table = state->read();
    } else {
      if (n->op() == "GatherV2") {
        const std::vector<int> axis = const_ints(n->inputs[2], "GatherV2 " + n->name + ": axis");
        if (axis.size() != 1 || axis[0] != 0 ||
            (n->attrs.count("batch_dims") && attr_int(n->attrs, "batch_dims") != 0)) {
          fail("GatherV2 " + n->name + ": only axis 0 without batch_dims converts");
        }
      }
      const Tensor* t = const_value(resolve(n->inputs[0]));
      if (!t) fail(n->op() + " " + n->name + ": only a gather from a constant table converts");
      table = *t;
    }
    if (table->dtype() != DType::kFloat32 || table->eager_shape().rank() < 1) {
      fail(n->op() + " " + n->name + ": the table must be float32 of rank >= 1");
    }
    LiteOp l;
    l.code = tflite::BuiltinOperator_GATHER;
    l.inputs = {const_tensor(*table, n->name), tensor(n->inputs[1], /*as_int32=*/true)};
    emit(std::move(l), n, n->name + ";");
  }

  // StridedSlice with constant begin/end/strides. New axes (x[:, tf.newaxis]) become a RESHAPE
  // that inserts them, then the slice with those axes taken whole, as TF's converter writes it.
  void lower_strided_slice(Node* n) {
    const std::string what = "StridedSlice " + n->name;
    std::vector<int> begin = const_ints(n->inputs[1], what + ": begin");
    std::vector<int> end = const_ints(n->inputs[2], what + ": end");
    std::vector<int> strides = const_ints(n->inputs[3], what + ": strides");
    const int64_t begin_mask = attr_int(n->attrs, "begin_mask");
    const int64_t end_mask = attr_int(n->attrs, "end_mask");
    const int64_t ellipsis = attr_int(n->attrs, "ellipsis_mask");
    const int64_t new_axis = attr_int(n->attrs, "new_axis_mask");
    const int64_t shrink = attr_int(n->attrs, "shrink_axis_mask");
    if (ellipsis != 0) fail(what + ": ellipsis_mask does not convert");
    if (new_axis & shrink) fail(what + ": an axis both new and shrunk does not convert");
    int32_t input = tensor(n->inputs[0]);
    LiteOp l;
    l.code = tflite::BuiltinOperator_STRIDED_SLICE;
    l.begin_mask = static_cast<int32_t>(begin_mask | new_axis);
    l.end_mask = static_cast<int32_t>(end_mask | new_axis);
    l.shrink_axis_mask = static_cast<int32_t>(shrink);
    if (new_axis != 0) {
      const PartialShape& in =
          n->inputs[0].node->output_shapes[static_cast<size_t>(n->inputs[0].index)];
      if (!in.has_rank()) fail(what + ": new axes on an input of unknown rank");
      std::vector<int32_t> shape;
      int dynamic = 0, k = 0;
      for (size_t d = 0; d < begin.size() || k < in.rank(); ++d) {
        if (d < begin.size() && ((new_axis >> d) & 1)) {
          shape.push_back(1);
          continue;
        }
        if (k >= in.rank()) fail(what + ": more slice dimensions than the input has");
        const int64_t dim = in.dim(k++);
        dynamic += dim < 0;
        shape.push_back(static_cast<int32_t>(dim < 0 ? -1 : dim));
      }
      if (dynamic > 1) fail(what + ": new axes on an input with more than one unknown dimension");
      Tensor s = Tensor::from_vector<int32_t>(std::vector<int32_t>(shape.begin(), shape.end()));
      LiteOp r;
      r.code = tflite::BuiltinOperator_RESHAPE;
      r.inputs = {input, const_tensor(s, "arith.constant")};
      LiteTensor t;
      t.name = n->name;
      t.type = lite_type(n->output_dtypes[0], n->name);
      set_shape(t, n->output_shapes[0]);
      const int32_t id = model_.add_tensor(std::move(t));
      r.outputs = {id};
      model_.ops.push_back(std::move(r));
      input = id;
      for (size_t d = 0; d < begin.size(); ++d) {
        if ((new_axis >> d) & 1) begin[d] = end[d] = 0, strides[d] = 1;
      }
    }
    // TF's converter spells the slice out for every input dimension: a dimension past the spec
    // is taken whole (begin 0, end its size, both masked).
    const PartialShape& full =
        n->inputs[0].node->output_shapes[static_cast<size_t>(n->inputs[0].index)];
    if (new_axis == 0 && full.has_rank()) {
      for (int d = static_cast<int>(begin.size()); d < full.rank() && full.dim(d) >= 0; ++d) {
        begin.push_back(0);
        end.push_back(static_cast<int>(full.dim(d)));
        strides.push_back(1);
        l.begin_mask |= 1 << d;
        l.end_mask |= 1 << d;
      }
    }
    // Spelled out, the three are new constants named after the slice, uniquified in MLIR's
    // constant order: "s" strides, "s1" end, "s2" begin (the output "s3"); in a dynamic-range
    // model, whose constants TF's quantization passes reorder, "s" begin, "s1" end, "s2" strides.
    const bool spelled_out = begin.size() > const_ints(n->inputs[1], what).size();
    auto spec = [&](const std::vector<int>& v, int input_index) {
      return const_tensor(
          Tensor::from_vector<int32_t>(std::vector<int32_t>(v.begin(), v.end())),
          spelled_out
              ? n->name
              : const_name(resolve(n->inputs[static_cast<size_t>(input_index)]),
                           *const_value(resolve(n->inputs[static_cast<size_t>(input_index)]))));
    };
    l.inputs = {input, -1, -1, -1};
    for (int k : dynamic_range_ ? std::vector<int>{1, 2, 3} : std::vector<int>{3, 2, 1}) {
      l.inputs[static_cast<size_t>(k)] = spec(k == 1 ? begin : k == 2 ? end : strides, k);
    }
    emit(std::move(l), n, n->name);
  }

  void lower(Node* n) {
    const std::string& op = n->op();
    if (auto g = gelu_.find(n); g != gelu_.end()) {
      LiteOp l;
      l.code = tflite::BuiltinOperator_GELU;
      l.approximate = false;
      l.inputs = {tensor(g->second.first)};
      return emit(std::move(l), n, g->second.second);
    }
    if (op == "Identity" || op == "Snapshot" || op == "StopGradient" || op == "IdentityN" ||
        op == "NoOp") {
      return;
    }
    if (op == "MatMul") return lower_matmul(n);
    if (op == "Einsum") return lower_einsum(n);
    if (op == "ResourceGather" || op == "GatherV2" || op == "Gather") return lower_gather(n);
    if (op == "StridedSlice") return lower_strided_slice(n);
    if (op == "RealDiv" && sqrt_of_.count(n)) return lower_div_sqrt(n);
    if (op == "Shape" || op == "Cast" || op == "Rsqrt" || op == "Pack") {
      LiteOp l;
      l.code = op == "Shape"  ? tflite::BuiltinOperator_SHAPE
               : op == "Cast" ? tflite::BuiltinOperator_CAST
               : op == "Pack" ? tflite::BuiltinOperator_PACK
                              : tflite::BuiltinOperator_RSQRT;
      if (op == "Shape" && n->output_dtypes[0] != DType::kInt32) {
        fail("Shape " + n->name + ": only out_type int32 converts");
      }
      if (op == "Pack") {
        const int rank = n->output_shapes[0].rank();
        const int64_t axis = attr_int(n->attrs, "axis");
        l.axis = static_cast<int32_t>(axis < 0 && rank > 0 ? axis + rank : axis);
      }
      if (op == "Pack") {
        if (std::optional<Output> whole = pack_of_whole_shape(n)) {
          tensor_of_[Output{n, 0}] = tensor(*whole);  // TF's converter reads SHAPE(x) itself
          return;  // (and writes none of the PACK's constant elements)
        }
      }
      for (const Output& in : n->inputs) l.inputs.push_back(tensor(in));
      if (op == "Pack") {  // MLIR's CSE: an equal PACK of the same tensors is the same value
        for (const LiteOp& o : model_.ops) {
          if (o.code == l.code && o.inputs == l.inputs && o.axis == l.axis) {
            tensor_of_[Output{n, 0}] = o.outputs[0];
            return;
          }
        }
      }
      return emit(std::move(l), n, n->name);
    }
    if (op == "Conv2D" || op == "DepthwiseConv2dNative") return lower_conv(n);
    if (op == "MaxPool" || op == "AvgPool") return lower_pool(n);
    if (op == "PartitionedCall" || op == "StatefulPartitionedCall") return lower_call(n);
    static const std::map<std::string, BuiltinOperator> binary = {
        {"AddV2", tflite::BuiltinOperator_ADD},
        {"Add", tflite::BuiltinOperator_ADD},
        {"BiasAdd", tflite::BuiltinOperator_ADD},
        {"Sub", tflite::BuiltinOperator_SUB},
        {"Mul", tflite::BuiltinOperator_MUL},
        {"RealDiv", tflite::BuiltinOperator_DIV},
        {"SquaredDifference", tflite::BuiltinOperator_SQUARED_DIFFERENCE}};
    static const std::map<std::string, BuiltinOperator> unary = {
        {"Relu", tflite::BuiltinOperator_RELU},       {"Relu6", tflite::BuiltinOperator_RELU6},
        {"Tanh", tflite::BuiltinOperator_TANH},       {"Sigmoid", tflite::BuiltinOperator_LOGISTIC},
        {"Softmax", tflite::BuiltinOperator_SOFTMAX}, {"Gelu", tflite::BuiltinOperator_GELU}};
    if (auto it = binary.find(op); it != binary.end()) return lower_binary(n, it->second);
    if (auto it = unary.find(op); it != unary.end()) {
      LiteOp l;
      l.code = it->second;
      l.inputs = {tensor(n->inputs[0])};
      return emit(std::move(l), n, n->name);
    }
    if (op == "BatchMatMulV2" || op == "BatchMatMul") {
      LiteOp l;
      l.code = tflite::BuiltinOperator_BATCH_MATMUL;
      l.adj_x = attr_bool_or(n->attrs, "adj_x", false);
      l.adj_y = attr_bool_or(n->attrs, "adj_y", false);
      l.inputs = {tensor(n->inputs[0]), tensor(n->inputs[1])};
      return emit(std::move(l), n, n->name);
    }
    if (op == "Transpose") {
      std::vector<int> perm = const_ints(n->inputs[1], "Transpose " + n->name + ": perm");
      bool identity = true;
      for (size_t k = 0; k < perm.size(); ++k) identity &= perm[k] == static_cast<int>(k);
      if (identity) {  // TF's converter folds it away
        alias_[Output{n, 0}] = resolve(n->inputs[0]);
        return;
      }
    }
    if (op == "Reshape" || op == "Transpose" || op == "Mean") {
      LiteOp l;
      l.code = op == "Reshape"     ? tflite::BuiltinOperator_RESHAPE
               : op == "Transpose" ? tflite::BuiltinOperator_TRANSPOSE
                                   : tflite::BuiltinOperator_MEAN;
      if (op != "Reshape") const_ints(n->inputs[1], op + " " + n->name + ": its second input");
      if (op == "Reshape" && !is_const(resolve(n->inputs[1]))) {
        l.inputs = {tensor(n->inputs[0]), tensor(n->inputs[1])};  // a computed shape
      } else if (op == "Reshape") {
        // The converter re-creates the shape constant; MLIR names it after the op kind.
        const Tensor* shape = const_value(resolve(n->inputs[1]));
        l.inputs = {tensor(n->inputs[0]), const_tensor(*shape, "arith.constant", true)};
      } else {
        l.inputs = {tensor(n->inputs[0]), tensor(n->inputs[1], /*as_int32=*/true)};
      }
      if (op == "Mean") l.keep_dims = attr_bool_or(n->attrs, "keep_dims", false);
      return emit(std::move(l), n, n->name);
    }
    if (op == "ConcatV2") {
      LiteOp l;
      l.code = tflite::BuiltinOperator_CONCATENATION;
      int axis = const_ints(n->inputs.back(), "ConcatV2 " + n->name + ": axis").at(0);
      int rank = n->output_shapes[0].rank();
      l.axis = axis < 0 ? axis + rank : axis;
      for (size_t i = 0; i + 1 < n->inputs.size(); ++i) l.inputs.push_back(tensor(n->inputs[i]));
      return emit(std::move(l), n, n->name);
    }
    fail("unsupported op " + op + " (node " + n->name + ")");
  }

  void lower_binary(Node* n, BuiltinOperator code) {
    LiteOp l;
    l.code = code;
    Output a = n->inputs[0], b = n->inputs[1];
    if (code == tflite::BuiltinOperator_DIV && is_const(resolve(b))) {
      // TF's converter turns division by a constant into multiplication by its reciprocal.
      // Both the constant and the product carry the fused location "truediv;truediv/y".
      Tensor recip = execute1("RealDiv", {Tensor::scalar<float>(1.0f), *const_value(resolve(b))});
      l.code = tflite::BuiltinOperator_MUL;
      std::string name = join_names({n->name, resolve(b).node->name});
      l.inputs = {tensor(a), const_tensor(recip, name)};
      std::set<std::string> names = {name};
      Node* last = fuse_activation(n, l, names);
      emit(std::move(l), last, join_names(names));
      tensor_of_[Output{n, 0}] = model_.ops.back().outputs[0];
      return;
    }
    // MLIR's canonical form of a commutative op has a constant operand on the right.
    const bool commutative = code == tflite::BuiltinOperator_ADD ||
                             code == tflite::BuiltinOperator_MUL ||
                             code == tflite::BuiltinOperator_SQUARED_DIFFERENCE;
    if (commutative && n->op() != "BiasAdd" && is_const(resolve(a)) && !is_const(resolve(b))) {
      std::swap(a, b);
    }
    l.inputs = {tensor(a), tensor(b)};
    std::set<std::string> names = {n->name};
    Node* last = fuse_activation(n, l, names);
    emit(std::move(l), last, join_names(names));
    tensor_of_[Output{n, 0}] = model_.ops.back().outputs[0];
  }

  void lower_matmul(Node* n) {
    bool ta = attr_bool_or(n->attrs, "transpose_a", false);
    bool tb = attr_bool_or(n->attrs, "transpose_b", false);
    const Tensor* w = const_value(resolve(n->inputs[1]));
    if (!w || ta || w->dtype() != DType::kFloat32) {
      LiteOp l;
      l.code = tflite::BuiltinOperator_BATCH_MATMUL;
      l.adj_x = ta;
      l.adj_y = tb;
      l.inputs = {tensor(n->inputs[0]), tensor(n->inputs[1])};
      return emit(std::move(l), n, n->name);
    }
    // FULLY_CONNECTED wants weights as [units, depth]: MatMul's [depth, units] transposed.
    Tensor kernel = tb ? *w : transpose(*w, std::vector<int64_t>{1, 0});
    lower_fully_connected(n, kernel, false, tb ? resolve(n->inputs[1]).node->name : n->name);
  }

  // tf.einsum of an activation and a constant matrix contracting the activation's last axis
  // ("bsd,df->bsf"): TF's converter makes it FULLY_CONNECTED with keep_num_dims.
  void lower_einsum(Node* n) {
    const std::string& eq = attr_string(n->attrs, "equation");
    const size_t comma = eq.find(','), arrow = eq.find("->");
    const Tensor* w = n->inputs.size() == 2 ? const_value(resolve(n->inputs[1])) : nullptr;
    if (comma == std::string::npos || arrow == std::string::npos || !w ||
        w->dtype() != DType::kFloat32 || w->eager_shape().rank() != 2) {
      fail("Einsum " + n->name + " (" + eq +
           "): only an activation times a constant matrix converts");
    }
    const std::string a = eq.substr(0, comma), b = eq.substr(comma + 1, arrow - comma - 1),
                      out = eq.substr(arrow + 2);
    const bool ok = a.size() >= 2 && b.size() == 2 && a.back() == b[0] &&
                    out == a.substr(0, a.size() - 1) + b[1] && a.find('.') == std::string::npos;
    if (!ok) {
      fail("Einsum " + n->name + " (" + eq +
           "): only a contraction of the last axis with a "
           "constant matrix (\"bsd,df->bsf\") converts");
    }
    lower_fully_connected(n, transpose(*w, std::vector<int64_t>{1, 0}), true, n->name);
  }

  // A constant vector added to the input of a FULLY_CONNECTED (a layer norm's beta) is folded
  // into its bias, as TF's converter does: FC(y + c) = FC(y) with bias b + W c (summed in double,
  // then rounded; TF's converter's own rounding differs in the last bit for some units). Returns
  // the activation y, or nothing.
  std::optional<Output> fold_input_add(Node* n, const Tensor& kernel, std::optional<Tensor>& bias) {
    Output in = resolve(n->inputs[0]);
    Node* add = in.node;
    if (add->op() != "AddV2" && add->op() != "Add") return std::nullopt;
    const int64_t units = kernel.eager_shape().dim(0), depth = kernel.eager_shape().dim(1);
    for (int side = 0; side < 2; ++side) {
      const Tensor* c = const_value(resolve(add->inputs[static_cast<size_t>(side)]));
      Output y = resolve(add->inputs[static_cast<size_t>(1 - side)]);
      if (!c || is_const(y) || c->dtype() != DType::kFloat32 || c->eager_shape().rank() != 1 ||
          c->eager_shape().dim(0) != depth) {
        continue;
      }
      std::vector<float> b(static_cast<size_t>(units), 0.0f);
      if (bias) std::copy_n(bias->data<float>(), units, b.data());
      const float* wv = kernel.data<float>();
      const float* cv = c->data<float>();
      for (int64_t u = 0; u < units; ++u) {
        double sum = 0;
        for (int64_t d = 0; d < depth; ++d) {
          sum += static_cast<double>(wv[u * depth + d]) * static_cast<double>(cv[d]);
        }
        b[static_cast<size_t>(u)] = static_cast<float>(sum + b[static_cast<size_t>(u)]);
      }
      bias = Tensor::from_vector<float>(b);
      return y;
    }
    return std::nullopt;
  }

  // `kernel_name`: the weights' name (the MatMul's when TF's converter folds a transpose into
  // them, the weights' own node's when it takes them as they are).
  void lower_fully_connected(Node* n, const Tensor& kernel, bool keep_num_dims,
                             const std::string& kernel_name) {
    const int64_t units = kernel.eager_shape().dim(0);
    LiteOp l;
    l.code = tflite::BuiltinOperator_FULLY_CONNECTED;
    l.keep_num_dims = keep_num_dims;
    if (keep_num_dims) l.version = 5;
    Node* last = n;
    Node* bias_add_node = nullptr;
    std::string bias_src;
    std::optional<Tensor> bias;
    if (Node* c = sole_consumer(n)) {
      bool bias_add = c->op() == "BiasAdd" || c->op() == "AddV2" || c->op() == "Add";
      if (bias_add) {
        int other = c->inputs[0].node == n ? 1 : 0;
        if (c->op() == "BiasAdd" && other != 1) bias_add = false;
        const Tensor* b =
            bias_add ? const_value(resolve(c->inputs[static_cast<size_t>(other)])) : nullptr;
        if (b && b->dtype() == DType::kFloat32 && b->eager_shape().rank() == 1 &&
            b->eager_shape().dim(0) == units) {
          bias = *b;
          absorbed_.insert(c);
          bias_add_node = c;
          bias_src = resolve(c->inputs[static_cast<size_t>(other)]).node->name;
          alias_[Output{c, 0}] = Output{n, 0};
          last = c;
        }
      }
    }
    std::set<std::string> act_names;
    Node* fused = fuse_activation(last, l, act_names);
    // MLIR's fused locations, not sorted: the bias "Relu;add" (the activation, the bias add),
    // the output "MatMul;Relu;add" (the MatMul first), "MatMul;BiasAdd" without an activation.
    std::vector<std::string> bias_names;
    if (fused != last) bias_names.push_back(fused->name);
    if (bias_add_node) bias_names.push_back(bias_add_node->name);
    std::vector<std::string> names = {n->name};
    names.insert(names.end(), bias_names.begin(), bias_names.end());
    last = fused;
    std::optional<Tensor> folded = bias;
    std::optional<Output> y = fold_input_add(n, kernel, folded);
    if (y) {
      bias = folded;
      if (bias_names.empty()) bias_names = names;
    }
    std::string out_name = fused_location(names), bias_name = fused_location(bias_names);
    std::string reshape_name = bias ? bias_name : "";
    if (keep_num_dims && bias_add_node && last == bias_add_node) {
      // An einsum's FULLY_CONNECTED keeps MLIR's own order of its fused locations: the einsum E,
      // the bias add A, the bias's node R, behind a folded input add B: the output "B;E;A;R",
      // the trailing RESHAPE "A;E;R"; the bias "A;E;R" (so the RESHAPE's is "A;E;R1"), or
      // "E;A;R" when it was recomputed for a folded input add.
      const std::string& e = n->name;
      const std::string& a = bias_add_node->name;
      out_name = fused_location({y ? resolve(n->inputs[0]).node->name : e, e, a, bias_src});
      reshape_name = fused_location({a, e, bias_src});
      bias_name = y ? fused_location({e, a, bias_src}) : reshape_name;
    }
    int32_t input = tensor(y ? *y : n->inputs[0]);
    int32_t kernel_id = const_tensor(kernel, kernel_name);
    int32_t bias_id = bias ? const_tensor(*bias, bias_name) : -1;
    // Without a bias, MLIR's no-value operand takes the op's name after the weights: "MatMul"
    // weights, the output "MatMul2" (checked with the oracle on matmul -> tanh, 2026-12-02).
    if (!bias) model_.reserved_names.push_back(model_.unique_name(out_name));
    l.inputs = {input, kernel_id, bias_id};
    emit(std::move(l), last, out_name);
    tensor_of_[Output{n, 0}] = model_.ops.back().outputs[0];
    if (keep_num_dims) einsum_reshape(last, reshape_name);
  }

  // TF lowers an einsum to reshape, matmul, reshape; FULLY_CONNECTED with keep_num_dims takes
  // the first reshape, and the second stays unless the next op is a Reshape anyway: a RESHAPE to
  // the output's shape (unknown dimensions -1), named `name` (the FULLY_CONNECTED's when empty).
  void einsum_reshape(Node* last, const std::string& name) {
    Node* c = sole_consumer(last);
    if (c && c->op() == "Reshape") return;
    const PartialShape& s = last->output_shapes[0];
    if (!s.has_rank()) return;
    std::vector<int32_t> shape;
    int unknown = 0;
    for (int d = 0; d < s.rank(); ++d) {
      unknown += s.dim(d) < 0;
      shape.push_back(static_cast<int32_t>(s.dim(d) < 0 ? -1 : s.dim(d)));
    }
    if (unknown > 1) return;
    const int32_t fc_out = model_.ops.back().outputs[0];
    LiteOp r;
    r.code = tflite::BuiltinOperator_RESHAPE;
    r.inputs = {fc_out, const_tensor(Tensor::from_vector<int32_t>(shape), "arith.constant")};
    LiteTensor t = model_.tensors[static_cast<size_t>(fc_out)];
    if (!name.empty()) t.name = name;
    const int32_t id = model_.add_tensor(std::move(t));
    r.outputs = {id};
    model_.ops.push_back(std::move(r));
    for (auto& [o, t_id] : tensor_of_) {
      if (t_id == fc_out) t_id = id;
    }
  }

  // ---- convolution and pooling (NHWC) ----

  // The window attrs every NHWC op shares: strides and dilations as [1, h, w, 1], padding SAME
  // or VALID.
  void window_options(Node* n, LiteOp& l, bool dilations) {
    auto four = [&](const char* attr) {
      const std::vector<int64_t>& v = attr_ints(n->attrs, attr);
      if (v.size() != 4 || v[0] != 1 || v[3] != 1 || v[1] < 1 || v[2] < 1) {
        fail(n->op() + " " + n->name + ": " + attr + " must be [1, h, w, 1] with h, w >= 1");
      }
      return std::make_pair(static_cast<int32_t>(v[1]), static_cast<int32_t>(v[2]));
    };
    if (n->attrs.count("data_format") && attr_string(n->attrs, "data_format") != "NHWC") {
      fail(n->op() + " " + n->name + ": data_format " + attr_string(n->attrs, "data_format") +
           " (only NHWC converts)");
    }
    const std::string& padding = attr_string(n->attrs, "padding");
    if (padding != "SAME" && padding != "VALID") {
      fail(n->op() + " " + n->name + ": padding " + padding + " (only SAME and VALID convert)");
    }
    l.padding = padding == "SAME" ? tflite::Padding_SAME : tflite::Padding_VALID;
    std::tie(l.stride_h, l.stride_w) = four("strides");
    if (dilations && n->attrs.count("dilations")) {
      std::tie(l.dilation_h, l.dilation_w) = four("dilations");
    }
  }

  int32_t zero_tensor(int64_t size, const std::string& name) {
    LiteTensor t;
    t.name = name;
    t.is_const = true;
    t.shape = {static_cast<int32_t>(size)};
    t.data.assign(static_cast<size_t>(size) * sizeof(float), '\0');
    return model_.add_tensor(std::move(t));
  }

  // A zero bias of `size` floats, as TF's converter gives a convolution without one, when
  // another convolution of the graph has that output depth: TF's legalization gives every
  // convolution a zero bias first (one with a bias add fuses it in later), and MLIR folds the
  // equal ones into one "arith.constant", shared by every op that still needs it.
  int32_t zero_bias(int64_t size) {
    auto it = zero_bias_.find(size);
    if (it != zero_bias_.end()) return it->second;
    return zero_bias_[size] = zero_tensor(size, "arith.constant");
  }

  // The output depth of a Conv2D / DepthwiseConv2dNative with a 4-D constant filter, or 0.
  int64_t conv_out_depth(Node* n) {
    const Tensor* w = const_value(resolve(n->inputs[1]));
    if (!w || w->eager_shape().rank() != 4) return 0;
    const Shape& ws = w->eager_shape();
    return n->op() == "Conv2D" ? ws.dim(3) : ws.dim(2) * ws.dim(3);
  }
  void count_conv_depths(const GraphFunction& fn) {
    for (const auto& node : fn.graph->nodes()) {
      Node* n = node.get();
      if (!live_.count(n) || (n->op() != "Conv2D" && n->op() != "DepthwiseConv2dNative")) continue;
      if (const int64_t d = conv_out_depth(n)) ++conv_depth_count_[d];
    }
  }

  // Conv2D (filter HWIO -> CONV_2D's OHWI) and DepthwiseConv2dNative (filter HWCM ->
  // [1, H, W, C*M]), each with a following bias add (BiasAdd or Add of a constant vector of the
  // output depth) and Relu/Relu6 fused in. The bias and the output carry the fused location of
  // all of them (the bias's own node included); the filter is named after the conv.
  void lower_conv(Node* n) {
    const bool depthwise = n->op() == "DepthwiseConv2dNative";
    LiteOp l;
    l.code =
        depthwise ? tflite::BuiltinOperator_DEPTHWISE_CONV_2D : tflite::BuiltinOperator_CONV_2D;
    window_options(n, l, true);
    const Tensor* w = const_value(resolve(n->inputs[1]));
    if (!w || w->dtype() != DType::kFloat32 || w->eager_shape().rank() != 4) {
      fail(n->op() + " " + n->name + ": the filter must be a 4-D float32 constant");
    }
    const Shape& ws = w->eager_shape();
    int64_t out_depth = 0;
    LiteTensor filter;
    filter.name = n->name;
    filter.is_const = true;
    if (depthwise) {
      // HWCM is [1, H, W, C*M] in the same memory order: output channel c * M + m.
      out_depth = ws.dim(2) * ws.dim(3);
      l.depth_multiplier = static_cast<int32_t>(ws.dim(3));
      filter.shape = {1, static_cast<int32_t>(ws.dim(0)), static_cast<int32_t>(ws.dim(1)),
                      static_cast<int32_t>(out_depth)};
      filter.data.assign(static_cast<const char*>(w->raw_data()), w->nbytes());
      if (l.dilation_w != 1 || l.dilation_h != 1) l.version = 2;
    } else {
      out_depth = ws.dim(3);
      Tensor ohwi = transpose(*w, std::vector<int64_t>{3, 0, 1, 2});
      for (int64_t d : ohwi.eager_shape().dims()) filter.shape.push_back(static_cast<int32_t>(d));
      filter.data.assign(static_cast<const char*>(ohwi.raw_data()), ohwi.nbytes());
    }
    Node* last = n;
    Node* bias_node = nullptr;
    std::string bias_src;
    std::optional<Tensor> bias;
    if (Node* c = sole_consumer(n)) {
      const bool bias_add = c->op() == "BiasAdd" || c->op() == "AddV2" || c->op() == "Add";
      const int other = c->inputs[0].node == n ? 1 : 0;
      if (bias_add && !(c->op() == "BiasAdd" && other != 1)) {
        Output src = resolve(c->inputs[static_cast<size_t>(other)]);
        const Tensor* b = const_value(src);
        if (b && b->dtype() == DType::kFloat32 && b->eager_shape().rank() == 1 &&
            b->eager_shape().dim(0) == out_depth) {
          bias = *b;
          absorbed_.insert(c);
          bias_node = c;
          bias_src = src.node->name;
          alias_[Output{c, 0}] = Output{n, 0};
          last = c;
        }
      }
    }
    std::set<std::string> act_names;
    Node* fused = fuse_activation(last, l, act_names);
    // MLIR's fused location, not sorted: the activation, the bias add, the conv, the bias's own
    // node ("Relu;BiasAdd;Conv2D;BiasAdd/ReadVariableOp"), each name once.
    std::vector<std::string> order;
    if (fused != last) order.push_back(fused->name);
    if (bias_node) order.push_back(bias_node->name);
    order.push_back(n->name);
    if (bias_node) order.push_back(bias_src);
    const std::string location = fused_location(order);
    const int32_t input = tensor(n->inputs[0]);
    int32_t filter_id = -1, bias_id = -1;
    if (bias || conv_depth_count_[out_depth] > 1) {
      filter_id = model_.add_tensor(std::move(filter));
      bias_id = bias ? const_tensor(*bias, location) : zero_bias(out_depth);
    } else {
      // A zero bias no other convolution's depth shares keeps the convolution's location, named
      // before the filter when the convolution reads a model input ("Conv2D" bias, "Conv2D1"
      // filter), after it otherwise ("Conv2D_1" filter, "Conv2D_11" bias); the output is next.
      const Node* in = resolve(n->inputs[0]).node;
      const bool first = std::find(src_.inputs.begin(), src_.inputs.end(), in) != src_.inputs.end();
      if (first) bias_id = zero_tensor(out_depth, n->name);
      filter_id = model_.add_tensor(std::move(filter));
      if (!first) bias_id = zero_tensor(out_depth, n->name);
    }
    l.inputs = {input, filter_id, bias_id};
    emit(std::move(l), fused, location);
    tensor_of_[Output{n, 0}] = model_.ops.back().outputs[0];
  }

  void lower_pool(Node* n) {
    LiteOp l;
    l.code = n->op() == "MaxPool" ? tflite::BuiltinOperator_MAX_POOL_2D
                                  : tflite::BuiltinOperator_AVERAGE_POOL_2D;
    if (n->attrs.count("explicit_paddings") && !attr_ints(n->attrs, "explicit_paddings").empty()) {
      fail(n->op() + " " + n->name + ": explicit paddings do not convert");
    }
    window_options(n, l, false);
    const std::vector<int64_t>& k = attr_ints(n->attrs, "ksize");
    if (k.size() != 4 || k[0] != 1 || k[3] != 1 || k[1] < 1 || k[2] < 1) {
      fail(n->op() + " " + n->name + ": ksize must be [1, h, w, 1] with h, w >= 1");
    }
    l.filter_h = static_cast<int32_t>(k[1]);
    l.filter_w = static_cast<int32_t>(k[2]);
    l.inputs = {tensor(n->inputs[0])};
    // A following Relu/Relu6 is fused in too; the output is named "Relu6;MaxPool2d" (the
    // activation first, unsorted).
    std::set<std::string> act_names;
    Node* last = fuse_activation(n, l, act_names);
    emit(std::move(l), last, last == n ? n->name : last->name + ";" + n->name);
    tensor_of_[Output{n, 0}] = model_.ops.back().outputs[0];
  }

  const detail::GraphSource& src_;
  const bool dynamic_range_;
  LiteModel model_;
  std::map<const Node*, std::vector<Node*>> consumers_;
  std::set<const Node*> graph_outputs_;
  std::set<const GraphFunction*> inlining_;
  std::set<const Node*> live_;
  std::set<const Node*> needed_;  // live and not behind a constant (mark_needed)
  std::set<const Node*> absorbed_;
  // The final Mul of a matched gelu -> its input and the GELU's name.
  std::map<const Node*, std::pair<Output, std::string>> gelu_;
  std::map<const Node*, Node*> sqrt_of_;  // RealDiv of a matched x / sqrt(v) -> the Sqrt
  std::map<Output, std::optional<Tensor>, OutputLess> consts_;
  std::map<Output, int32_t, OutputLess> tensor_of_;
  std::map<Output, Output, OutputLess> alias_;
  std::map<std::tuple<DType, std::vector<int64_t>, std::string>, int> const_value_count_;
  std::map<const Node*, bool> folds_from_consts_;
  std::map<int64_t, int32_t> zero_bias_;
  std::map<int64_t, int> conv_depth_count_;  // output depth -> live convolutions of that depth  //
                                             // output depth -> its zero bias tensor
  // Constants MLIR would fold into one (type, shape, bytes) -> the tensor, and the name it
  // was first asked for.
  std::map<std::tuple<tflite::TensorType, std::vector<int32_t>, std::string>,
           std::pair<int32_t, std::string>>
      equal_consts_;
};

}  // namespace

namespace detail {

// Shapes the graph left unknown (a variable read has no static shape in tfscope's graphs), found
// by running the model: once with every dynamic input dimension 1, once with 2; a dimension
// that follows the input's is dynamic (-1 in shape_signature).
void infer_shapes(LiteModel& model) {
  bool any = false;
  for (const LiteTensor& t : model.tensors) any |= t.shape_unknown;
  if (!any) return;
  std::vector<std::vector<int>> shapes[2];
  for (int pass = 0; pass < 2; ++pass) {
    Interpreter interp(ModelFile(serialize(model), "converted model"));
    std::vector<Interpreter::TensorValue> inputs;
    for (int32_t id : model.inputs) {
      const LiteTensor& t = model.tensors[static_cast<size_t>(id)];
      Interpreter::TensorValue v;
      for (size_t k = 0; k < t.shape.size(); ++k) {
        bool dynamic = !t.shape_signature.empty() && t.shape_signature[k] < 0;
        v.shape.push_back(dynamic ? pass + 1 : t.shape[k]);
      }
      int64_t n = 1;
      for (int d : v.shape) n *= d;
      // Integer inputs (token ids) get 0, a valid index of any table.
      v.data.assign(static_cast<size_t>(n), t.type == tflite::TensorType_FLOAT32 ? 0.5f : 0.0f);
      inputs.push_back(std::move(v));
    }
    interp.run(inputs);
    for (size_t k = 0; k < model.tensors.size(); ++k) {
      const auto* v = interp.intermediate(static_cast<int>(k));
      shapes[pass].push_back(v ? v->shape : std::vector<int>{});
    }
  }
  for (size_t k = 0; k < model.tensors.size(); ++k) {
    LiteTensor& t = model.tensors[k];
    if (!t.shape_unknown) continue;
    const auto& a = shapes[0][k];
    const auto& b = shapes[1][k];
    t.shape.assign(a.begin(), a.end());
    t.shape_signature.clear();
    bool dynamic = false;
    for (size_t d = 0; d < a.size(); ++d) {
      bool dyn = d < b.size() && a[d] != b[d];
      t.shape_signature.push_back(dyn ? -1 : a[d]);
      dynamic |= dyn;
    }
    if (!dynamic) t.shape_signature.clear();
    t.shape_unknown = false;
  }
}

GraphSource source_of(const ConcreteFunction& fn) {
  GraphSource src;
  src.fn = &fn.graph_function();
  std::vector<Tensor> ins = fn.inputs();
  const size_t n_args = ins.size() - fn.captures().size();
  for (size_t i = 0; i < n_args; ++i) {
    src.inputs.push_back(ins[i].node());
    src.input_keys.push_back(ins[i].node()->name);
  }
  for (const Capture& c : fn.captures()) {
    if (c.kind == "resource") {
      auto state = std::dynamic_pointer_cast<VariableState>(c.external.resource_handle());
      if (state) src.resources[c.placeholder] = state;
    } else if (c.external.is_eager()) {
      src.tensors[c.placeholder] = c.external;
    }
  }
  Value structured = fn.structured_outputs();
  std::vector<std::string> dict_keys;
  if (structured.kind() == Value::Kind::kDict) {
    for (auto& [k, v] : structured.dict_items()) dict_keys.push_back(k.as_str());
    std::sort(dict_keys.begin(), dict_keys.end());
  }
  for (size_t i = 0; i < src.fn->outputs.size(); ++i) {
    src.output_keys.push_back(i < dict_keys.size() ? dict_keys[i] : "output_" + std::to_string(i));
  }
  return src;
}

LiteModel build_model(const GraphSource& src, const ConvertOptions& options) {
  LiteModel model = Converter(src, options).run();
  infer_shapes(model);
  if (options.dynamic_range) quantize_dynamic_range(model);
  model.min_runtime_version = min_runtime_version(model);
  return model;
}
}  // namespace detail

std::string convert(const ConcreteFunction& fn, const ConvertOptions& options) {
  return detail::serialize(detail::build_model(detail::source_of(fn), options));
}

}  // namespace tfs::lite
