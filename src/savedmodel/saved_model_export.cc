// tfs::saved_model::save: concrete functions -> a SavedModel in TF's v1 form, which TF 2.21's
// tf.saved_model.load accepts (conformance/formats/NOTES.md, "A SavedModel built from scratch"):
// the functions' nodes in the MetaGraph's GraphDef (If/While bodies as FunctionDefs), a
// SignatureDef each, every captured variable as a VarHandleOp with its VariableDef, and a saver
// whose RestoreV2 reads variables/variables (a TensorBundle keyed by variable name).
#include <algorithm>
#include <limits>
#include <set>

#include "graph_convert.h"
#include "model_directory.h"
#include "tfscope/proto/variable.pb.h"
#include "tfscope/saved_model.h"

namespace tfs::saved_model {

using savedmodel::detail::attrs_to_proto;
using savedmodel::detail::shape_to_proto;
using savedmodel::detail::tensor_to_proto;

namespace {

// GraphDef producer/min_consumer TF 2.21.0 writes.
constexpr int kProducer = 2474;
constexpr int kMinConsumer = 12;

[[noreturn]] void fail(const std::string& what) {
  throw FormatError("[savedmodel] " + what);
}

tensorflow::NodeDef& add_node(tensorflow::GraphDef& g, const std::string& name,
                              const std::string& op, std::vector<std::string> inputs = {}) {
  tensorflow::NodeDef& n = *g.add_node();
  n.set_name(name);
  n.set_op(op);
  for (auto& i : inputs) n.add_input(i);
  return n;
}

void set_type(tensorflow::NodeDef& n, const std::string& attr, DType dt) {
  (*n.mutable_attr())[attr].set_type(static_cast<tensorflow::DataType>(dt));
}

void add_const(tensorflow::GraphDef& g, const std::string& name, const Tensor& value) {
  tensorflow::NodeDef& n = add_node(g, name, "Const");
  set_type(n, "dtype", value.dtype());
  tensor_to_proto(value, (*n.mutable_attr())["value"].mutable_tensor());
}

// tf.zeros(shape) as TF 1's zeros initializer stages it: a Const below 1000 elements, else
// Fill(shape_as_tensor, Const), so that a large variable costs the .pb a few bytes, not its size.
void add_zeros(tensorflow::GraphDef& g, const std::string& name, DType dtype, const Shape& shape) {
  const int64_t n = shape.num_elements();
  if (n < 1000) {
    add_const(g, name,
              dtype == DType::kString
                  ? Tensor::strings(std::vector<std::string>(static_cast<size_t>(n)), shape)
                  : Tensor::zeros(dtype, shape));
    return;
  }
  const bool wide = std::any_of(shape.dims().begin(), shape.dims().end(),
                                [](int64_t d) { return d > std::numeric_limits<int32_t>::max(); });
  std::vector<int64_t> dims = shape.dims();
  Tensor dims_t = wide ? Tensor::from_vector(dims)
                       : Tensor::from_vector(std::vector<int32_t>(dims.begin(), dims.end()));
  add_const(g, name + "/shape_as_tensor", dims_t);
  add_const(g, name + "/Const",
            dtype == DType::kString ? Tensor::string_scalar("") : Tensor::zeros(dtype, Shape{}));
  tensorflow::NodeDef& fill =
      add_node(g, name, "Fill", {name + "/shape_as_tensor", name + "/Const"});
  set_type(fill, "T", dtype);
  set_type(fill, "index_type", wide ? DType::kInt64 : DType::kInt32);
}

std::string tensor_name(const std::string& node, int index) {
  return node + ":" + std::to_string(index);
}

std::string input_ref(const std::string& node, int index) {
  return index == 0 ? node : node + ":" + std::to_string(index);
}

struct ExportedVariable {
  std::shared_ptr<VariableState> state;
  std::string name;  // node name and checkpoint key
};

// Builds the MetaGraph; collects the variables to write.
class Exporter {
 public:
  explicit Exporter(const SignatureFunctions& fns) : fns_(fns) {}

  tensorflow::SavedModel build() {
    tensorflow::SavedModel model;
    model.set_saved_model_schema_version(1);
    tensorflow::MetaGraphDef& mg = *model.add_meta_graphs();
    mg.mutable_meta_info_def()->add_tags(savedmodel::kTagServe);
    tensorflow::GraphDef& g = *mg.mutable_graph_def();
    g.mutable_versions()->set_producer(kProducer);
    g.mutable_versions()->set_min_consumer(kMinConsumer);
    reserve_names();
    FunctionLibrary lib;
    for (size_t k = 0; k < fns_.size(); ++k) {
      const auto& [key, cf] = fns_[k];
      add_signature(mg, key, *cf, k == 0 ? "" : key + "/");
      savedmodel::detail::collect_library(*cf->graph(), lib);
    }
    for (const auto& [name, fn] : lib)
      *g.mutable_library()->add_function() = savedmodel::detail::function_to_proto(*fn);
    if (!variables_.empty()) add_variables(mg);
    return model;
  }

  const std::vector<ExportedVariable>& variables() const { return variables_; }

 private:
  void reserve_names() {
    std::set<std::string> keys;
    for (size_t k = 0; k < fns_.size(); ++k) {
      const auto& [key, cf] = fns_[k];
      if (!cf) fail("signature '" + key + "' has no function");
      if (!keys.insert(key).second) fail("signature '" + key + "' is given twice");
      const std::string prefix = k == 0 ? "" : key + "/";
      for (const auto& n : cf->graph()->nodes()) used_.insert(prefix + n->name);
    }
  }

  // A node name for `var`, shared by every signature that captures it.
  const std::string& variable_name(const std::shared_ptr<VariableState>& var) {
    for (const auto& v : variables_)
      if (v.state == var) return v.name;
    std::string base = var->name();
    if (auto colon = base.rfind(':'); colon != std::string::npos) base = base.substr(0, colon);
    if (base.empty()) base = "Variable";
    std::string name = base;
    for (int i = 1; used_.count(name) || used_.count(name + "/Assign"); ++i)
      name = base + "_" + std::to_string(i);
    used_.insert(name);
    variables_.push_back({var, name});
    return variables_.back().name;
  }

  void add_signature(tensorflow::MetaGraphDef& mg, const std::string& key,
                     const ConcreteFunction& cf, const std::string& prefix) {
    tensorflow::GraphDef& g = *mg.mutable_graph_def();
    const GraphFunction& fn = cf.graph_function();
    std::map<const Node*, const Capture*> captures;
    for (const Capture& c : cf.captures())
      if (c.kind != "const") captures[c.placeholder] = &c;  // a "const" capture is a Const node
    std::map<const Node*, std::string> names;               // emitted name of every node
    for (const auto& n : fn.graph->nodes()) names[n.get()] = prefix + n->name;

    tensorflow::SignatureDef& sig = (*mg.mutable_signature_def())[key];
    sig.set_method_name(savedmodel::kPredictMethodName);
    std::set<const Node*> args(fn.args.begin(), fn.args.end());
    for (const Node* a : fn.args) {
      if (captures.count(a)) continue;
      if (a->output_dtypes[0] == DType::kResource)
        fail(cf.name() + ": argument " + a->name + " is a variable; signatures take tensors only");
      auto& info = (*sig.mutable_inputs())[a->name];
      info.set_name(tensor_name(names[a], 0));
      info.set_dtype(static_cast<tensorflow::DataType>(a->output_dtypes[0]));
      shape_to_proto(a->output_shapes[0], info.mutable_tensor_shape());
    }
    for (const auto& [ph, c] : captures) {
      if (c->kind == "resource") {
        auto var = std::dynamic_pointer_cast<VariableState>(c->external.resource_handle());
        if (!var) fail(cf.name() + ": captured resource " + ph->name + " is not a variable");
        names[ph] = variable_name(var);
      } else if (c->kind != "tensor" || !c->external.is_eager()) {
        fail(cf.name() + ": capture " + ph->name + " (" + c->kind +
             ") cannot be saved; only variables and eager tensors can");
      }
    }
    for (const auto& up : fn.graph->nodes()) {
      const Node& n = *up;
      auto c = captures.find(&n);
      if (c != captures.end()) {
        if (c->second->kind == "tensor") add_const(g, names[&n], c->second->external);
        continue;
      }
      tensorflow::NodeDef& nd = add_node(g, names[&n], n.op());
      for (const Output& in : n.inputs) nd.add_input(input_ref(names[in.node], in.index));
      for (const Node* ctl : n.control_inputs) nd.add_input("^" + names[ctl]);
      attrs_to_proto(n, nd.mutable_attr());
    }
    std::vector<std::string> keys = signature_output_keys(cf);
    for (size_t i = 0; i < fn.outputs.size(); ++i) {
      const Output& o = fn.outputs[i];
      auto& info = (*sig.mutable_outputs())[keys[i]];
      info.set_name(tensor_name(names[o.node], o.index));
      info.set_dtype(
          static_cast<tensorflow::DataType>(o.node->output_dtypes[static_cast<size_t>(o.index)]));
      shape_to_proto(o.node->output_shapes[static_cast<size_t>(o.index)],
                     info.mutable_tensor_shape());
    }
  }

  // Per variable: VarHandleOp, a zeros initializer, a read, its VariableDef; then the saver
  // (RestoreV2 -> AssignVariableOp, SaveV2) the v1 loader restores them with.
  void add_variables(tensorflow::MetaGraphDef& mg) {
    tensorflow::GraphDef& g = *mg.mutable_graph_def();
    std::vector<std::string> defs;
    for (const auto& v : variables_) {
      const auto& st = *v.state;
      if (!st.shape().is_fully_defined())
        fail("variable " + v.name + " has shape " + st.shape().str() +
             "; only fully defined shapes save");
      tensorflow::NodeDef& h = add_node(g, v.name, "VarHandleOp");
      set_type(h, "dtype", st.dtype());
      shape_to_proto(st.shape(), (*h.mutable_attr())["shape"].mutable_shape());
      (*h.mutable_attr())["shared_name"].set_s(v.name);
      (*h.mutable_attr())["container"].set_s("");
      const std::string init = v.name + "/Initializer/zeros";
      add_zeros(g, init, st.dtype(), *st.shape().to_shape());
      set_type(add_node(g, v.name + "/Assign", "AssignVariableOp", {v.name, init}), "dtype",
               st.dtype());
      set_type(add_node(g, v.name + "/Read/ReadVariableOp", "ReadVariableOp", {v.name}), "dtype",
               st.dtype());
      tensorflow::VariableDef def;
      def.set_variable_name(v.name + ":0");
      def.set_initializer_name(v.name + "/Assign");
      def.set_snapshot_name(v.name + "/Read/ReadVariableOp:0");
      def.set_initial_value_name(init + ":0");
      def.set_is_resource(true);
      def.set_trainable(st.trainable());
      defs.push_back(def.SerializeAsString());
    }
    for (const char* key : {"variables", "trainable_variables"}) {
      auto* list = (*mg.mutable_collection_def())[key].mutable_bytes_list();
      for (size_t i = 0; i < variables_.size(); ++i) {
        if (std::string(key) == "trainable_variables" && !variables_[i].state->trainable())
          continue;
        list->add_value(defs[i]);
      }
    }
    std::string s = "save";
    for (int i = 1; used_.count(s + "/Const") || used_.count(s + "/restore_all"); ++i)
      s = "save_" + std::to_string(i);
    std::vector<std::string> keys, slices;
    for (const auto& v : variables_) {
      keys.push_back(v.name);
      slices.push_back("");
    }
    const Shape n{static_cast<int64_t>(keys.size())};
    add_const(g, s + "/Const", Tensor::string_scalar("model"));
    add_const(g, s + "/RestoreV2/tensor_names", Tensor::strings(keys, n));
    add_const(g, s + "/RestoreV2/shape_and_slices", Tensor::strings(slices, n));
    tensorflow::NodeDef& restore =
        add_node(g, s + "/RestoreV2", "RestoreV2",
                 {s + "/Const", s + "/RestoreV2/tensor_names", s + "/RestoreV2/shape_and_slices"});
    tensorflow::NodeDef& save =
        add_node(g, s + "/SaveV2", "SaveV2",
                 {s + "/Const", s + "/RestoreV2/tensor_names", s + "/RestoreV2/shape_and_slices"});
    std::vector<std::string> assigns;
    for (size_t i = 0; i < variables_.size(); ++i) {
      const auto& v = variables_[i];
      auto dt = static_cast<tensorflow::DataType>(v.state->dtype());
      (*restore.mutable_attr())["dtypes"].mutable_list()->add_type(dt);
      (*save.mutable_attr())["dtypes"].mutable_list()->add_type(dt);
      save.add_input(v.name + "/Read/ReadVariableOp");
      std::string a = s + "/AssignVariableOp" + (i ? "_" + std::to_string(i) : "");
      set_type(add_node(g, a, "AssignVariableOp",
                        {v.name, input_ref(s + "/RestoreV2", static_cast<int>(i))}),
               "dtype", v.state->dtype());
      assigns.push_back("^" + a);
    }
    add_node(g, s + "/restore_all", "NoOp", assigns);
    set_type(
        add_node(g, s + "/control_dependency", "Identity", {s + "/Const", "^" + s + "/SaveV2"}),
        "T", DType::kString);
    tensorflow::SaverDef& saver = *mg.mutable_saver_def();
    saver.set_filename_tensor_name(s + "/Const:0");
    saver.set_save_tensor_name(s + "/control_dependency:0");
    saver.set_restore_op_name(s + "/restore_all");
    saver.set_version(tensorflow::SaverDef::V2);
  }

  const SignatureFunctions& fns_;
  std::set<std::string> used_;
  std::vector<ExportedVariable> variables_;
};

}  // namespace

std::vector<std::string> signature_output_keys(const ConcreteFunction& fn) {
  const size_t n = fn.graph_function().outputs.size();
  std::vector<std::string> keys;
  const Value& out = fn.structured_outputs();
  if (out.kind() == Value::Kind::kDict && out.dict_items().size() == n) {
    for (const auto& [k, v] : out.dict_items()) {
      if (k.kind() != Value::Kind::kStr || v.kind() != Value::Kind::kTensor) {
        keys.clear();
        break;
      }
      keys.push_back(k.as_str());
    }
    std::sort(keys.begin(), keys.end());  // nest.flatten's order
    if (keys.size() == n) return keys;
    keys.clear();
  }
  for (size_t i = 0; i < n; ++i) keys.push_back("output_" + std::to_string(i));
  return keys;
}

void save(const SignatureFunctions& fns, const std::string& dir, const SaveOptions&) {
  if (fns.empty()) fail(dir + ": nothing to save (no signatures)");
  Exporter ex(fns);
  tensorflow::SavedModel model = ex.build();
  std::vector<savedmodel::BundleTensor> tensors;
  for (const auto& v : ex.variables()) {
    tensors.push_back(savedmodel::detail::tensor_to_bundle(v.name, v.state->read()));
  }

  // The model's own files, data before index before saved_model.pb, so that a reader of the
  // directory never meets a saved_model.pb whose variables are not there yet. TF always writes
  // a checkpoint; tfscope writes no fingerprint.pb, so an earlier model's one goes.
  const savedmodel::BundleFiles bundle = savedmodel::encode_bundle(tensors);
  const std::string vars = std::string(savedmodel::kVariablesDirectory) + "/";
  savedmodel::detail::write_model_directory(
      dir,
      {{vars + "variables.data-00000-of-00001", bundle.data},
       {vars + "variables.index", bundle.index},
       {savedmodel::kSavedModelFilename, savedmodel::serialize_as_tf(model)}},
      {savedmodel::kFingerprintFilename});
}

void save(const ConcreteFunction& fn, const std::string& dir, const SaveOptions& options) {
  // The caller owns `fn`; an aliasing shared_ptr lets it travel in SignatureFunctions.
  std::shared_ptr<ConcreteFunction> ref(std::shared_ptr<ConcreteFunction>(),
                                        const_cast<ConcreteFunction*>(&fn));
  save(SignatureFunctions{{options.signature_key, ref}}, dir, options);
}

void save(Function& fn, const std::string& dir, const SaveOptions& options) {
  std::shared_ptr<ConcreteFunction> cf;
  if (fn.options().input_signature) {
    cf = fn.get_concrete_function();
  } else {
    auto all = fn.concrete_functions();
    if (all.size() != 1)
      fail(fn.name() + ": has " + std::to_string(all.size()) +
           " concrete functions; give it an input_signature or save one ConcreteFunction");
    cf = all[0];
  }
  save(SignatureFunctions{{options.signature_key, cf}}, dir, options);
}

}  // namespace tfs::saved_model
