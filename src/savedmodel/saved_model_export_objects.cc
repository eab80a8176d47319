// tfs::saved_model::save_objects: an object tree -> a TF 2 SavedModel, in the form TF 2.21's
// tf.saved_model.save writes (checked with the oracle, conformance/saved_model/NOTES.md):
// - SavedObjectGraph nodes numbered breadth-first from the root; a function's traces are
//   bare_concrete_function children "trace_<i>", an eager tensor a trace captures a constant
//   child "capture_<i>" of that trace (i its position among the bound inputs; one Const node
//   of the main graph per tensor, shared by every function capturing it), the root has a
//   "signatures" user object (identifier "signature_map") holding one bare concrete function
//   per signature, "__inference_signature_wrapper_<name>_<uid>" when signatures= gave a
//   tf.function, "__inference_signature_wrapper_<uid>" for a ConcreteFunction or the default
//   export;
// - every concrete function a FunctionDef of the library, its SavedConcreteFunction's
//   bound_inputs the node ids of what it captures (variables, constants);
// - a signature: Placeholders "<key>_<input>" and a (Stateful)PartitionedCall of the wrapper
//   in the main graph, fed the variables' VarHandleOps, the SignatureDef naming its outputs;
// - the checkpoint: each variable under "<path>/.ATTRIBUTES/VARIABLE_VALUE" (the local names
//   from the root) and _CHECKPOINTABLE_OBJECT_GRAPH, a TrackableObjectGraph with the object
//   graph's nodes and children;
// - the saver (saver_functions.h): saver_def naming the main graph's calls of the traced
//   save and restore functions.
#include <algorithm>
#include <filesystem>
#include <set>

#include "file_util.h"
#include "graph_convert.h"
#include "model_directory.h"
#include "saver_functions.h"
#include "structured_value.h"
#include "tfscope/proto/fingerprint.pb.h"
#include "tfscope/proto/trackable_object_graph.pb.h"
#include "tfscope/saved_model.h"
#include "tfscope/saved_model_fingerprint.h"
#include "tfscope/signature_text.h"
#include "trackable_graph.h"

namespace tfs::saved_model {

namespace sd = savedmodel::detail;

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw FormatError("[savedmodel] " + what);
}

// A node of the object graph being built (indices before the breadth-first numbering).
struct Obj {
  std::string kind;  // user_object, variable, function, bare, constant
  std::string identifier;
  std::vector<std::pair<std::string, int>> children;
  const SaveObject* src = nullptr;
  std::shared_ptr<VariableState> variable;
  std::string fn;  // bare: the concrete function's name
  std::vector<std::string> argument_keywords;
  int64_t allowed_positional = 0;
  Tensor constant;
  std::string const_op;  // constant: its main-graph Const node
  std::string asset;     // asset: the source file
};

// A function written to the library with its SavedConcreteFunction.
struct Saved {
  std::string name;
  std::vector<int> bound;  // Obj indices
  Value input_signature;
  Value output_signature;
};

// TF's output specs (convert_structure_to_signature): each tensor a TensorSpec named by its nest
// path joined with "_" (a dict's key, a sequence's index, a namedtuple's field), sanitized: a lone
// tensor "unknown", {'b': [x, y]} "b_0" and "b_1", (x, [y]) "tensor_0" and "tensor_1_0".
Value output_specs(const Value& v, const std::string& path = "") {
  using K = Value::Kind;
  auto under = [&](const std::string& part) { return path.empty() ? part : path + "_" + part; };
  switch (v.kind()) {
    case K::kTensor:
      return Value(
          TensorSpec(v.as_tensor().shape(), v.as_tensor().dtype(), sanitize_spec_name(path)));
    case K::kList:
    case K::kTuple: {
      ValueList items;
      for (size_t i = 0; i < v.items().size(); ++i)
        items.push_back(output_specs(v.items()[i], under(std::to_string(i))));
      return v.kind() == K::kList ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case K::kNamedTuple: {
      const auto& nt = v.named_tuple();
      ValueList items;
      for (size_t i = 0; i < nt.values.size(); ++i)
        items.push_back(output_specs(nt.values[i], under(nt.fields[i])));
      return Value::named_tuple(nt.type_name, nt.fields, std::move(items));
    }
    case K::kDict: {
      ValueItems items;
      for (const auto& [k, x] : v.dict_items())
        items.emplace_back(k, output_specs(x, under(k.kind() == K::kStr ? k.as_str() : k.repr())));
      return Value::dict(std::move(items));
    }
    default:
      return v;
  }
}

// The parameters of a signature: the function's tensor arguments by name, sorted as nest
// sorts a dict's keys (the wrapper's flat order).
struct SigInput {
  std::string key;
  const Node* arg;
};

class ObjectExporter {
 public:
  ObjectExporter(const std::vector<SaveObject>& objects, const SignatureFunctions& sigs,
                 const std::set<std::string>& named_after_function)
      : objects_(objects), sigs_(sigs), named_after_function_(named_after_function) {}

  void build() {
    if (objects_.empty()) fail("nothing to save (no root object)");
    for (const auto& o : objects_) {
      Obj x;
      x.kind = o.kind;
      x.identifier = o.identifier;
      x.src = &o;
      x.variable = o.variable;
      for (const auto& [name, c] : o.children) {
        if (c < 0 || c >= static_cast<int>(objects_.size()))
          fail("object child '" + name + "' is out of range");
        x.children.emplace_back(name, c);
      }
      if (x.kind == "variable" && !x.variable) fail("variable object without a variable");
      if (x.kind == "asset") x.asset = o.asset_path;
      tree_.push_back(std::move(x));
    }
    for (size_t i = 0; i < objects_.size(); ++i)
      if (tree_[i].variable) var_obj_.emplace(tree_[i].variable.get(), static_cast<int>(i));
    for (size_t i = 0; i < objects_.size(); ++i) {
      if (tree_[i].kind != "function") continue;
      const auto& cfs = objects_[i].concrete_functions;
      for (size_t j = 0; j < cfs.size(); ++j) {
        int bare = add_bare(*cfs[j], cfs[j]->name());
        tree_[i].children.emplace_back("trace_" + std::to_string(j), bare);
        add_function(*cfs[j], bare);
      }
    }
    Obj map;
    map.kind = "user_object";
    map.identifier = "signature_map";
    tree_.push_back(map);
    const int map_index = static_cast<int>(tree_.size()) - 1;
    tree_[0].children.emplace_back("signatures", map_index);
    for (const auto& [key, cf] : sigs_) {
      if (!cf) fail("signature '" + key + "' has no function");
      const std::string fn_part =
          named_after_function_.count(key) ? cf->function_name() + "_" : std::string();
      const std::string wrapper =
          "__inference_signature_wrapper_" + fn_part + std::to_string(next_uid());
      int bare = add_bare(*cf, wrapper);
      tree_[static_cast<size_t>(map_index)].children.emplace_back(key, bare);
      add_wrapper(key, cf, wrapper, bare);
    }
    number();
    name_handles();
  }

  tensorflow::SavedModel model() {
    tensorflow::SavedModel sm;
    sm.set_saved_model_schema_version(1);
    tensorflow::MetaGraphDef& mg = *sm.add_meta_graphs();
    mg.mutable_meta_info_def()->add_tags(savedmodel::kTagServe);
    tensorflow::GraphDef& g = *mg.mutable_graph_def();
    g.mutable_versions()->set_producer(2474);  // TF 2.21.0's GraphDef producer
    g.mutable_versions()->set_min_consumer(12);
    FunctionLibrary lib;
    for (const auto& [name, fn] : library_) lib[name] = fn;
    for (const auto& [name, fn] : library_) sd::collect_library(*fn->graph, lib);
    for (const auto& [name, fn] : lib)
      *g.mutable_library()->add_function() = sd::function_to_proto(*fn);
    for (const auto& fd : wrappers_) *g.mutable_library()->add_function() = fd;
    main_graph(mg);
    object_graph(*mg.mutable_object_graph_def());
    return sm;
  }

  // The checkpoint's tensors: variables by path, then the object graph.
  std::vector<savedmodel::BundleTensor> checkpoint() const {
    std::vector<savedmodel::BundleTensor> out;
    const tensorflow::TrackableObjectGraph tog = trackable_graph(&out);
    out.push_back(sd::tensor_to_bundle("_CHECKPOINTABLE_OBJECT_GRAPH",
                                       Tensor::string_scalar(tog.SerializeAsString())));
    return out;
  }

 private:
  // The checkpoint's object graph; each variable's value into `values` when given.
  tensorflow::TrackableObjectGraph trackable_graph(
      std::vector<savedmodel::BundleTensor>* values) const {
    if (values) {
      for (size_t k = 0; k < numbered_.order.size(); ++k) {
        const Obj& o = tree_[static_cast<size_t>(numbered_.order[k])];
        if (o.kind == "variable")
          values->push_back(
              sd::tensor_to_bundle(sd::checkpoint_key(numbered_.path[k]), o.variable->read()));
      }
    }
    return sd::trackable_object_graph(children_, numbered_, [&](int i) -> const std::string* {
      if (tree_[static_cast<size_t>(i)].kind != "variable") return nullptr;
      return &handle_name_.at(i);
    });
  }

  static std::string variable_name(const VariableState& v) {
    std::string n = v.name();
    if (auto colon = n.rfind(':'); colon != std::string::npos) n = n.substr(0, colon);
    return n.empty() ? "Variable" : n;
  }

  int add_bare(const ConcreteFunction& cf, const std::string& name) {
    Obj b;
    b.kind = "bare";
    b.fn = name;
    tree_.push_back(std::move(b));
    (void)cf;
    return static_cast<int>(tree_.size()) - 1;
  }

  // bound_inputs of `cf`: its non-constant captures in order, each a variable object or a
  // constant object, one per eager tensor however many functions capture it (TF's), the child
  // "capture_<i>" of `bare` with i its position among the bound inputs.
  std::vector<int> bound_inputs(const ConcreteFunction& cf, int bare) {
    std::vector<int> bound;
    for (const Capture& c : cf.captures()) {
      if (c.kind == "const") continue;
      if (c.kind == "resource") {
        auto var = std::dynamic_pointer_cast<VariableState>(c.external.resource_handle());
        auto it = var ? var_obj_.find(var.get()) : var_obj_.end();
        if (it == var_obj_.end())
          fail(cf.name() +
               ": Tried to export a function which references an 'untracked' "
               "resource. TensorFlow objects (e.g. tf.Variable) captured by functions must be "
               "'tracked' by assigning them to an attribute of a tracked object or assigned to "
               "an attribute of the main object directly.");
        bound.push_back(it->second);
      } else if (c.kind == "tensor" && c.external.is_eager()) {
        auto [it, fresh] = const_obj_.emplace(c.external.id(), static_cast<int>(tree_.size()));
        if (fresh) {
          Obj k_obj;
          k_obj.kind = "constant";
          k_obj.constant = c.external;
          k_obj.const_op = const_name();
          tree_.push_back(std::move(k_obj));
        }
        tree_[static_cast<size_t>(bare)].children.emplace_back(
            "capture_" + std::to_string(bound.size()), it->second);
        bound.push_back(it->second);
      } else {
        fail(cf.name() + ": capture " + c.placeholder->name + " (" + c.kind +
             ") cannot be saved; only variables and eager tensors can");
      }
    }
    return bound;
  }

  std::string const_name() {
    std::string n = consts_ == 0 ? "Const" : "Const_" + std::to_string(consts_);
    ++consts_;
    return n;
  }

  void add_function(const ConcreteFunction& cf, int bare) {
    if (cf.graph_function().name != cf.name())
      fail(cf.name() + ": its graph function is named " + cf.graph_function().name);
    Saved s;
    s.name = cf.name();
    s.bound = bound_inputs(cf, bare);
    s.input_signature = cf.structured_input_signature();
    s.output_signature = output_specs(cf.structured_outputs());
    tree_[static_cast<size_t>(bare)].argument_keywords = arg_keywords(cf);
    tree_[static_cast<size_t>(bare)].allowed_positional =
        static_cast<int64_t>(tree_[static_cast<size_t>(bare)].argument_keywords.size());
    saved_.push_back(std::move(s));
    library_[cf.name()] = std::shared_ptr<const GraphFunction>(cf.graph(), &cf.graph_function());
  }

  static std::vector<std::string> arg_keywords(const ConcreteFunction& cf) {
    std::vector<std::string> out;
    std::set<const Node*> captured;
    for (const Capture& c : cf.captures()) captured.insert(c.placeholder);
    for (const Node* a : cf.graph_function().args)
      if (!captured.count(a)) out.push_back(a->name);
    return out;
  }

  std::vector<SigInput> sig_inputs(const ConcreteFunction& cf) const {
    std::set<const Node*> captured;
    for (const Capture& c : cf.captures()) captured.insert(c.placeholder);
    std::vector<SigInput> in;
    for (const Node* a : cf.graph_function().args) {
      if (captured.count(a)) continue;
      if (a->output_dtypes[0] == DType::kResource)
        fail(cf.name() + ": argument " + a->name + " is a variable; signatures take tensors only");
      in.push_back({a->name, a});
    }
    std::sort(in.begin(), in.end(), [](auto& x, auto& y) { return x.key < y.key; });
    return in;
  }

  // The signature wrapper: the inputs (sorted by key), then cf's captures, one call of cf,
  // its outputs by key in sorted order.
  void add_wrapper(const std::string& key, const std::shared_ptr<ConcreteFunction>& cf,
                   const std::string& name, int bare) {
    const GraphFunction& fn = cf->graph_function();
    std::vector<SigInput> inputs = sig_inputs(*cf);
    std::vector<std::string> keys = signature_output_keys(*cf);
    std::vector<size_t> out_order(keys.size());
    for (size_t i = 0; i < keys.size(); ++i) out_order[i] = i;
    std::sort(out_order.begin(), out_order.end(),
              [&](size_t a, size_t b) { return keys[a] < keys[b]; });

    tensorflow::FunctionDef fd;
    auto* sig = fd.mutable_signature();
    sig->set_name(name);
    std::map<const Node*, std::string> arg_of;
    auto add_arg = [&](const Node* a, const std::string& arg) {
      auto* ad = sig->add_input_arg();
      ad->set_name(arg);
      ad->set_type(static_cast<tensorflow::DataType>(a->output_dtypes[0]));
      auto& attrs = *(*fd.mutable_arg_attr())[static_cast<uint32_t>(sig->input_arg_size() - 1)]
                         .mutable_attr();
      if (a->output_shapes[0].has_rank())
        sd::shape_to_proto(a->output_shapes[0],
                           attrs["_output_shapes"].mutable_list()->add_shape());
      attrs["_user_specified_name"].set_s(arg);
      arg_of[a] = arg;
    };
    ValueItems in_specs;
    for (const auto& in : inputs) {
      add_arg(in.arg, in.key);
      in_specs.emplace_back(Value(in.key), Value(TensorSpec(in.arg->output_shapes[0],
                                                            in.arg->output_dtypes[0], in.key)));
    }
    int k = 0;
    std::set<std::string> used;
    for (const auto& in : inputs) used.insert(in.key);
    for (const Capture& c : cf->captures()) {
      if (c.kind == "const") continue;
      std::string arg = "capture_" + std::to_string(k++);
      while (used.count(arg)) arg += "_";
      used.insert(arg);
      add_arg(c.placeholder, arg);
    }
    auto& call = *fd.add_node_def();
    const bool stateful = fn.is_stateful;
    call.set_name("StatefulPartitionedCall");
    call.set_op(stateful ? "StatefulPartitionedCall" : "PartitionedCall");
    for (const Node* a : fn.args) call.add_input(arg_of.at(a));
    auto& attrs = *call.mutable_attr();
    attrs["f"].mutable_func()->set_name(cf->name());
    for (DType t : fn.arg_dtypes())
      attrs["Tin"].mutable_list()->add_type(static_cast<tensorflow::DataType>(t));
    for (DType t : fn.output_dtypes())
      attrs["Tout"].mutable_list()->add_type(static_cast<tensorflow::DataType>(t));
    attrs["config"].set_s("");
    attrs["config_proto"].set_s("");
    attrs["executor_type"].set_s("");
    ValueItems out_specs;
    for (size_t i : out_order) {
      const Output& o = fn.outputs[i];
      auto* od = sig->add_output_arg();
      od->set_name(keys[i]);
      od->set_type(
          static_cast<tensorflow::DataType>(o.node->output_dtypes[static_cast<size_t>(o.index)]));
      (*fd.mutable_ret())[keys[i]] = "StatefulPartitionedCall:output:" + std::to_string(i);
      out_specs.emplace_back(Value(keys[i]),
                             Value(TensorSpec(o.node->output_shapes[static_cast<size_t>(o.index)],
                                              o.node->output_dtypes[static_cast<size_t>(o.index)],
                                              sanitize_spec_name(keys[i]))));
    }
    sig->set_is_stateful(stateful);
    wrappers_.push_back(fd);
    library_[cf->name()] = std::shared_ptr<const GraphFunction>(cf->graph(), &fn);

    Saved s;
    s.name = name;
    s.bound = bound_inputs(*cf, bare);
    s.input_signature = Value::tuple({Value::tuple({}), Value::dict(std::move(in_specs))});
    s.output_signature = Value::dict(std::move(out_specs));
    Obj& b = tree_[static_cast<size_t>(bare)];
    for (const auto& in : inputs) b.argument_keywords.push_back(in.key);
    b.allowed_positional = static_cast<int64_t>(inputs.size());
    saved_.push_back(std::move(s));
    signatures_.push_back({key, name, cf, std::move(inputs), keys, out_order});
  }

  // Breadth-first ids from the root, as TF numbers the object graph; each node's path of
  // local names from the root (its first discovery).
  void number() {
    for (const Obj& o : tree_) children_.push_back(o.children);
    numbered_ = sd::number_breadth_first(children_);
    for (size_t i = 0; i < tree_.size(); ++i)
      if (numbered_.id[i] < 0 && tree_[i].kind == "variable")
        fail("variable " + variable_name(*tree_[i].variable) + " is not reachable from the root");
  }

  // The variables' VarHandleOp names in the main graph: TF re-creates the variables for the
  // export graph last object first, so of two variables named "v" the later one (in
  // breadth-first order) keeps "v" and the earlier becomes "v_1"; the checkpoint's object graph
  // records these names (full_name), after the captured constants' "Const", "Const_1", ...
  void name_handles() {
    std::set<std::string> used;
    for (const Obj& o : tree_)
      if (o.kind == "constant") used.insert(o.const_op);
    for (size_t k = numbered_.order.size(); k-- > 0;) {
      const Obj& o = tree_[static_cast<size_t>(numbered_.order[k])];
      if (o.kind != "variable") continue;
      const std::string base = variable_name(*o.variable);
      std::string n = base;
      for (int i = 1; used.count(n); ++i) n = base + "_" + std::to_string(i);
      used.insert(n);
      handle_name_[numbered_.order[k]] = n;
    }
  }

  void fill_spec(const Obj& o, tensorflow::FunctionSpec* spec) const {
    if (!o.src) return;
    sd::value_to_structured(o.src->fullargspec, spec->mutable_fullargspec());
    sd::value_to_structured(o.src->input_signature, spec->mutable_input_signature());
  }

  void object_graph(tensorflow::SavedObjectGraph& og) const {
    for (size_t k = 0; k < numbered_.order.size(); ++k) {
      const Obj& o = tree_[static_cast<size_t>(numbered_.order[k])];
      auto* n = og.add_nodes();
      for (const auto& [name, c] : o.children) {
        auto* r = n->add_children();
        r->set_node_id(numbered_.id.at(c));
        r->set_local_name(name);
      }
      if (o.kind == "user_object") {
        auto* u = n->mutable_user_object();
        u->set_identifier(o.identifier);
        u->mutable_version()->set_producer(1);
        u->mutable_version()->set_min_consumer(1);
      } else if (o.kind == "variable") {
        auto* v = n->mutable_variable();
        v->set_dtype(static_cast<tensorflow::DataType>(o.variable->dtype()));
        sd::shape_to_proto(o.variable->shape(), v->mutable_shape());
        v->set_trainable(o.variable->trainable());
        v->set_name(variable_name(*o.variable));
      } else if (o.kind == "function") {
        auto* f = n->mutable_function();
        for (const auto& cf : o.src->concrete_functions) f->add_concrete_functions(cf->name());
        fill_spec(o, f->mutable_function_spec());
        for (const auto& [name, c] : o.children) {
          auto* r = n->add_dependencies();
          r->set_node_id(numbered_.id.at(c));
          r->set_local_name(name);
        }
      } else if (o.kind == "bare") {
        auto* b = n->mutable_bare_concrete_function();
        b->set_concrete_function_name(o.fn);
        for (const auto& a : o.argument_keywords) b->add_argument_keywords(a);
        b->set_allowed_positional_arguments(o.allowed_positional);
      } else if (o.kind == "constant") {
        n->mutable_constant()->set_operation(o.const_op);
      } else if (o.kind == "asset") {
        n->mutable_asset()->set_asset_file_def_index(asset_index_.at(numbered_.order[k]));
      }
    }
    for (const auto& s : saved_) {
      auto& c = (*og.mutable_concrete_functions())[s.name];
      for (int b : s.bound) c.add_bound_inputs(numbered_.id.at(static_cast<size_t>(b)));
      sd::value_to_structured(s.input_signature, c.mutable_canonicalized_input_signature());
      sd::value_to_structured(s.output_signature, c.mutable_output_signature());
    }
  }

  void main_graph(tensorflow::MetaGraphDef& mg) {
    tensorflow::GraphDef& g = *mg.mutable_graph_def();
    std::set<std::string> used;
    auto unique = [&](const std::string& base) {
      std::string n = base;
      for (int i = 1; used.count(n); ++i) n = base + "_" + std::to_string(i);
      used.insert(n);
      return n;
    };
    for (const Obj& o : tree_)
      if (o.kind == "constant") used.insert(o.const_op);
    for (const auto& [i, name] : handle_name_) used.insert(name);
    std::map<int, std::string> handle_of;  // tree index -> VarHandleOp / Const node
    for (size_t k = 0; k < numbered_.order.size(); ++k) {
      const int i = numbered_.order[k];
      const Obj& o = tree_[static_cast<size_t>(i)];
      if (o.kind != "constant") continue;
      auto& n = *g.add_node();
      n.set_name(o.const_op);
      n.set_op("Const");
      (*n.mutable_attr())["dtype"].set_type(static_cast<tensorflow::DataType>(o.constant.dtype()));
      sd::tensor_to_proto(o.constant, (*n.mutable_attr())["value"].mutable_tensor());
      handle_of[i] = o.const_op;
    }
    for (size_t k = numbered_.order.size(); k-- > 0;) {  // TF's order: the last variable first
      const int i = numbered_.order[k];
      const Obj& o = tree_[static_cast<size_t>(i)];
      if (o.kind != "variable") continue;
      const std::string& name = handle_name_.at(i);
      auto& n = *g.add_node();
      n.set_name(name);
      n.set_op("VarHandleOp");
      auto& a = *n.mutable_attr();
      a["dtype"].set_type(static_cast<tensorflow::DataType>(o.variable->dtype()));
      sd::shape_to_proto(o.variable->shape(), a["shape"].mutable_shape());
      a["shared_name"].set_s(name);
      a["container"].set_s("");
      handle_of[i] = name;
    }
    for (size_t k = 0; k < numbered_.order.size(); ++k) {
      const Obj& o = tree_[static_cast<size_t>(numbered_.order[k])];
      if (o.kind != "asset") continue;
      // TF: a string Placeholder "asset_path_initializer" per asset, which asset_file_def names.
      const std::string name = unique("asset_path_initializer");
      auto& n = *g.add_node();
      n.set_name(name);
      n.set_op("Placeholder");
      (*n.mutable_attr())["dtype"].set_type(tensorflow::DT_STRING);
      (*n.mutable_attr())["shape"].mutable_shape();
      const std::string file = std::filesystem::path(o.asset).filename().string();
      for (const auto& a : mg.asset_file_def())
        if (a.filename() == file) fail("two assets are named " + file);
      asset_index_[numbered_.order[k]] = mg.asset_file_def_size();
      auto* a = mg.add_asset_file_def();
      a->mutable_tensor_info()->set_name(name + ":0");
      a->set_filename(file);
      asset_files_.push_back({std::string("assets/") + file, sd::read_file(o.asset)});
    }
    auto& noop = *g.add_node();
    noop.set_name(unique("NoOp"));
    noop.set_op("NoOp");
    {
      auto& init = (*mg.mutable_signature_def())["__saved_model_init_op"];
      auto& info = (*init.mutable_outputs())["__saved_model_init_op"];
      info.set_name(noop.name());
      info.mutable_tensor_shape()->set_unknown_rank(true);
    }
    for (const auto& s : signatures_) {
      const Saved* saved = nullptr;
      for (const auto& x : saved_)
        if (x.name == s.wrapper) saved = &x;
      tensorflow::SignatureDef& sig = (*mg.mutable_signature_def())[s.key];
      sig.set_method_name(savedmodel::kPredictMethodName);
      const GraphFunction& fn = s.cf->graph_function();
      std::vector<std::string> call_inputs;
      for (const auto& in : s.inputs) {
        const std::string ph = unique(s.key + "_" + in.key);
        auto& n = *g.add_node();
        n.set_name(ph);
        n.set_op("Placeholder");
        (*n.mutable_attr())["dtype"].set_type(
            static_cast<tensorflow::DataType>(in.arg->output_dtypes[0]));
        sd::shape_to_proto(in.arg->output_shapes[0], (*n.mutable_attr())["shape"].mutable_shape());
        call_inputs.push_back(ph);
        auto& info = (*sig.mutable_inputs())[in.key];
        info.set_name(ph + ":0");
        info.set_dtype(static_cast<tensorflow::DataType>(in.arg->output_dtypes[0]));
        sd::shape_to_proto(in.arg->output_shapes[0], info.mutable_tensor_shape());
      }
      std::vector<DType> tin;
      for (const auto& in : s.inputs) tin.push_back(in.arg->output_dtypes[0]);
      for (int b : saved->bound) {
        call_inputs.push_back(handle_of.at(b));
        const Obj& o = tree_[static_cast<size_t>(b)];
        tin.push_back(o.kind == "variable" ? DType::kResource : o.constant.dtype());
      }
      const char* op = fn.is_stateful ? "StatefulPartitionedCall" : "PartitionedCall";
      const std::string call_name = unique(op);
      auto& call = *g.add_node();
      call.set_name(call_name);
      call.set_op(op);
      for (const auto& in : call_inputs) call.add_input(in);
      auto& attrs = *call.mutable_attr();
      attrs["f"].mutable_func()->set_name(s.wrapper);
      for (DType t : tin)
        attrs["Tin"].mutable_list()->add_type(static_cast<tensorflow::DataType>(t));
      for (size_t j = 0; j < s.out_order.size(); ++j) {
        const Output& o = fn.outputs[s.out_order[j]];
        const DType dt = o.node->output_dtypes[static_cast<size_t>(o.index)];
        attrs["Tout"].mutable_list()->add_type(static_cast<tensorflow::DataType>(dt));
        auto& info = (*sig.mutable_outputs())[s.keys[s.out_order[j]]];
        info.set_name(call_name + ":" + std::to_string(j));
        info.set_dtype(static_cast<tensorflow::DataType>(dt));
        sd::shape_to_proto(o.node->output_shapes[static_cast<size_t>(o.index)],
                           info.mutable_tensor_shape());
      }
      attrs["config"].set_s("");
      attrs["config_proto"].set_s("");
      attrs["executor_type"].set_s("");
    }
    // The saver (saver_def) over every variable in the object graph's order.
    std::vector<sd::SaverVariable> vars;
    for (size_t k = 0; k < numbered_.order.size(); ++k) {
      const Obj& o = tree_[static_cast<size_t>(numbered_.order[k])];
      if (o.kind != "variable") continue;
      vars.push_back({handle_of.at(numbered_.order[k]), sd::checkpoint_key(numbered_.path[k]),
                      o.variable->dtype(), o.variable->shape()});
    }
    sd::add_saver(mg, vars, trackable_graph(nullptr).SerializeAsString(), unique);
  }

  struct Signature {
    std::string key;
    std::string wrapper;
    std::shared_ptr<ConcreteFunction> cf;
    std::vector<SigInput> inputs;
    std::vector<std::string> keys;  // output keys in cf's flat order
    std::vector<size_t> out_order;  // flat output index per wrapper output (sorted keys)
  };

  const std::vector<SaveObject>& objects_;
  const SignatureFunctions& sigs_;
  const std::set<std::string>& named_after_function_;
  std::vector<Obj> tree_;
  std::map<const VariableState*, int> var_obj_;
  std::map<const void*, int> const_obj_;  // a captured eager tensor's id -> its constant object
  std::vector<Saved> saved_;
  FunctionLibrary library_;
  std::vector<tensorflow::FunctionDef> wrappers_;
  std::vector<Signature> signatures_;
  sd::ObjectChildren children_;  // tree_'s children, numbered as TF numbers them
  sd::BreadthFirst numbered_;
  int consts_ = 0;
  std::map<int, int> asset_index_;          // tree index -> asset_file_def index
  std::map<int, std::string> handle_name_;  // variable's tree index -> its VarHandleOp

 public:
  std::vector<sd::ModelFile> asset_files_;  // assets/<name> and the bytes to copy
};

}  // namespace

void save_objects(const std::vector<SaveObject>& objects, const SignatureFunctions& signatures,
                  const std::string& dir, const std::set<std::string>& named_after_function) {
  ObjectExporter ex(objects, signatures, named_after_function);
  ex.build();
  tensorflow::SavedModel model = ex.model();
  const savedmodel::BundleFiles bundle = savedmodel::encode_bundle(ex.checkpoint());
  const std::string pb = savedmodel::serialize_as_tf(model);
  // TF computes fingerprint.pb from the files it wrote (the SavedModel as read back, the
  // checkpoint index); `pb` parses to `model`, so hashing `model` is hashing the file.
  tensorflow::FingerprintDef fp = savedmodel::compute_fingerprint(model, bundle.index);
  fp.set_uuid(savedmodel::random_fingerprint_uuid());
  const std::string vars = std::string(savedmodel::kVariablesDirectory) + "/";
  std::vector<sd::ModelFile> files = ex.asset_files_;
  files.insert(files.end(), {{vars + "variables.data-00000-of-00001", bundle.data},
                             {vars + "variables.index", bundle.index},
                             {savedmodel::kSavedModelFilename, pb},
                             {savedmodel::kFingerprintFilename, fp.SerializeAsString()}});
  savedmodel::detail::write_model_directory(dir, files, {});
  // TF makes assets/ even when the model has none.
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(dir) / "assets", ec);
}

}  // namespace tfs::saved_model
