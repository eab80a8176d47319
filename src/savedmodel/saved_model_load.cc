// tfs::saved_model::load: a SavedModel's signatures as functions on our Executor. Each signature
// is the part of the MetaGraph's GraphDef its outputs depend on: its input tensors become argument
// placeholders, every VarHandleOp a resource argument fed with a variable restored from
// variables/, and called functions (StatefulPartitionedCall, If, While) come from the library.
// Which checkpoint key holds a VarHandleOp's value: in TF's v1 form, the saver's RestoreV2 ->
// AssignVariableOp edges say; in TF2's form, the object graph does (a call node's trailing inputs
// are its concrete function's bound_inputs, object ids whose checkpoint node carries the key).
#include <algorithm>
#include <deque>
#include <filesystem>
#include <set>

#include "graph_convert.h"
#include "object_graph.h"
#include "tfscope/proto/trackable_object_graph.pb.h"
#include "tfscope/saved_model.h"

namespace tfs::saved_model {

namespace fs = std::filesystem;
using savedmodel::detail::FunctionImporter;

namespace {

struct TensorRef {
  std::string node;
  int index = 0;
};

// GraphDef's "node", "node:1" (a "^node" is handled by the caller).
TensorRef parse_ref(const std::string& s) {
  TensorRef r;
  size_t colon = s.rfind(':');
  r.node = s.substr(0, colon);
  if (colon != std::string::npos) {
    const std::string idx = s.substr(colon + 1);
    if (idx.empty() || idx.size() > 6 || !std::all_of(idx.begin(), idx.end(), ::isdigit)) {
      r.node = s;  // a ':' inside the name
    } else {
      r.index = std::stoi(idx);
    }
  }
  return r;
}

std::string input_node(const std::string& s) {
  return parse_ref(!s.empty() && s[0] == '^' ? s.substr(1) : s).node;
}

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

}  // namespace

class Loader {
 public:
  explicit Loader(std::string dir) : dir_(std::move(dir)) {
    file_ = (fs::path(dir_) / savedmodel::kSavedModelFilename).string();
  }

  std::shared_ptr<LoadedModel> run() {
    std::error_code ec;
    if (!fs::is_directory(dir_, ec))
      fail_at(dir_, "not a SavedModel directory (no such directory)");
    if (!fs::exists(file_, ec)) fail_at(dir_, "not a SavedModel directory (no saved_model.pb)");
    model_ = savedmodel::read_saved_model(dir_);
    mg_ = &pick_meta_graph();
    for (const auto& n : mg_->graph_def().node()) {
      if (!nodes_.emplace(n.name(), &n).second) fail("duplicate node name '" + n.name() + "'");
    }
    auto out = std::make_shared<LoadedModel>();
    out->dir_ = dir_;
    out->format_ =
        mg_->has_object_graph_def() && mg_->object_graph_def().nodes_size() > 0 ? "tf2" : "tf1";
    out->library_ = std::make_shared<FunctionLibrary>();
    FunctionImporter fns(mg_->graph_def().library(), file_, out->library_);
    map_v1_variables();
    if (out->format_ == "tf2") map_v2_variables();
    std::vector<std::string> keys;
    for (const auto& [key, sig] : mg_->signature_def()) keys.push_back(key);
    std::sort(keys.begin(), keys.end());
    for (const auto& key : keys) {
      if (key == "__saved_model_init_op") continue;
      out->signatures_.emplace(
          key, build_signature(key, mg_->signature_def().at(key), fns, out->library_));
    }
    if (out->format_ == "tf2") {
      detail::ObjectGraphLoader objects(*mg_, dir_, file_, fns, out->library_);
      objects.run(*out, [this](int id) { return object_variable(id); });
    }
    for (const auto& [node, var] : variables_) out->variables_[var_keys_.at(node)] = var;
    for (const auto& [key, var] : by_key_) out->variables_[key] = var;
    out->fingerprint_ = detail::read_fingerprint(dir_);
    return out;
  }

 private:
  [[noreturn]] static void fail_at(const std::string& where, const std::string& what) {
    throw FormatError("[savedmodel] " + where + ": " + what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(file_, what); }

  const tensorflow::MetaGraphDef& pick_meta_graph() const {
    const tensorflow::MetaGraphDef* pick = nullptr;
    for (const auto& mg : model_.meta_graphs()) {
      const auto& tags = mg.meta_info_def().tags();
      if (std::find(tags.begin(), tags.end(), savedmodel::kTagServe) != tags.end()) {
        pick = &mg;
        break;
      }
    }
    if (!pick && model_.meta_graphs_size() == 1) pick = &model_.meta_graphs(0);
    if (!pick) fail("no MetaGraphDef tagged 'serve'");
    return *pick;
  }

  const tensorflow::NodeDef* find(const std::string& name) const {
    auto it = nodes_.find(name);
    return it == nodes_.end() ? nullptr : it->second;
  }

  // Follows Identity nodes back to the producer of `ref`.
  TensorRef through_identities(TensorRef ref) const {
    for (int guard = 0; guard < 64; ++guard) {
      const auto* n = find(ref.node);
      if (!n || n->op() != "Identity" || n->input_size() == 0) break;
      ref = parse_ref(n->input(0));
    }
    return ref;
  }

  // TF1 form: AssignVariableOp(handle, RestoreV2:i) with RestoreV2's tensor_names a Const.
  void map_v1_variables() {
    for (const auto& [name, n] : nodes_) {
      if (n->op() != "AssignVariableOp" || n->input_size() < 2) continue;
      TensorRef value = through_identities(parse_ref(n->input(1)));
      const auto* restore = find(value.node);
      if (!restore || restore->op() != "RestoreV2" || restore->input_size() < 2) continue;
      const auto* names = find(input_node(restore->input(1)));
      if (!names || names->op() != "Const") continue;
      auto v = names->attr().find("value");
      if (v == names->attr().end()) continue;
      const auto& t = v->second.tensor();
      if (value.index < 0 || value.index >= t.string_val_size()) continue;
      var_keys_[input_node(n->input(0))] = t.string_val(value.index);
    }
  }

  // TF2 form: the checkpoint key of each object graph node that has a VARIABLE_VALUE, found by
  // walking the object graph and the checkpoint's object graph from their roots in step,
  // children matched by name.
  void map_object_keys() {
    const auto& og = mg_->object_graph_def();
    bool any = false;
    for (const auto& n : og.nodes()) any = any || n.has_variable();
    if (!any) return;
    const auto& ckpt = checkpoint_object_graph();
    std::map<int, int> ckpt_of;
    std::deque<std::pair<int, int>> queue{{0, 0}};
    while (!queue.empty()) {
      auto [s, c] = queue.front();
      queue.pop_front();
      if (s < 0 || s >= og.nodes_size() || c < 0 || c >= ckpt.nodes_size()) continue;
      if (!ckpt_of.emplace(s, c).second) continue;
      for (const auto& child : og.nodes(s).children()) {
        for (const auto& cc : ckpt.nodes(c).children()) {
          if (cc.local_name() == child.local_name())
            queue.push_back({child.node_id(), cc.node_id()});
        }
      }
    }
    for (const auto& [object, c] : ckpt_of) {
      for (const auto& attr : ckpt.nodes(c).attributes()) {
        if (attr.name() == "VARIABLE_VALUE") object_keys_[object] = attr.checkpoint_key();
      }
    }
  }

  // A variable restored from the checkpoint tensor `key`, one per key (a signature's
  // VarHandleOp and the object graph's variable node share it).
  std::shared_ptr<VariableState> variable_for_key(const std::string& key, DType dt,
                                                  const PartialShape& shape,
                                                  const std::string& name, const std::string& what,
                                                  bool trainable) {
    if (auto it = by_key_.find(key); it != by_key_.end()) return it->second;
    auto& b = bundle();
    if (!b.contains(key))
      fail_at(index_file(), "no tensor '" + key + "' for variable '" + what + "'");
    Tensor value = savedmodel::detail::tensor_from_bundle(b.get(key), index_file());
    if (value.dtype() != dt || !shape.is_compatible_with(value.shape())) {
      fail_at(index_file(), "tensor '" + key + "' is " + std::string(dtype_name(value.dtype())) +
                                " " + value.shape().str() + ", variable '" + what + "' is " +
                                std::string(dtype_name(dt)) + " " + shape.str());
    }
    auto var = std::make_shared<VariableState>(dt, shape.has_rank() ? shape : value.shape(),
                                               name + ":0", trainable);
    var->write(value);
    by_key_[key] = var;
    return var;
  }

  // The object graph's variable nodes, restored (TF names them by SavedVariable.name).
  std::shared_ptr<VariableState> object_variable(int id) {
    const auto& og = mg_->object_graph_def();
    if (id < 0 || id >= og.nodes_size() || !og.nodes(id).has_variable()) return nullptr;
    const auto& sv = og.nodes(id).variable();
    auto key = object_keys_.find(id);
    const std::string what = sv.name().empty() ? "node " + std::to_string(id) : sv.name();
    if (key == object_keys_.end())
      fail("variable '" + what + "' is not restored from the checkpoint");
    const std::string where = file_ + ": variable '" + what + "'";
    auto var =
        variable_for_key(key->second, savedmodel::detail::dtype_from_proto(sv.dtype(), where),
                         savedmodel::detail::shape_from_proto(sv.shape(), where),
                         sv.name().empty() ? "Variable" : sv.name(), what, sv.trainable());
    return var;
  }

  // TF2 form: a signature's VarHandleOps, by the object ids of the call's bound_inputs.
  void map_v2_variables() {
    map_object_keys();
    const auto& og = mg_->object_graph_def();
    std::map<int, std::string> object_of_handle;
    for (const auto& [name, n] : nodes_) {
      if (n->op() != "StatefulPartitionedCall" && n->op() != "PartitionedCall") continue;
      auto f = n->attr().find("f");
      if (f == n->attr().end()) continue;
      auto cf = og.concrete_functions().find(f->second.func().name());
      if (cf == og.concrete_functions().end()) continue;
      std::vector<std::string> data;
      for (const auto& in : n->input())
        if (!in.empty() && in[0] != '^') data.push_back(in);
      const auto& bound = cf->second.bound_inputs();
      if (bound.size() > static_cast<int>(data.size())) continue;
      size_t first = data.size() - static_cast<size_t>(bound.size());
      for (int j = 0; j < bound.size(); ++j) {
        std::string handle = input_node(data[first + static_cast<size_t>(j)]);
        const auto* h = find(handle);
        if (h && h->op() == "VarHandleOp") object_of_handle[bound.Get(j)] = handle;
      }
    }
    for (const auto& [object, handle] : object_of_handle) {
      if (auto k = object_keys_.find(object); k != object_keys_.end()) {
        var_keys_[handle] = k->second;
        handle_object_[handle] = object;
      }
    }
  }

  savedmodel::BundleReader& bundle() {
    if (!bundle_)
      bundle_ = std::make_unique<savedmodel::BundleReader>(savedmodel::variables_prefix(dir_));
    return *bundle_;
  }

  std::string index_file() const { return savedmodel::variables_prefix(dir_) + ".index"; }

  const tensorflow::TrackableObjectGraph& checkpoint_object_graph() {
    if (!ckpt_graph_) {
      const char* key = "_CHECKPOINTABLE_OBJECT_GRAPH";
      ckpt_graph_ = std::make_unique<tensorflow::TrackableObjectGraph>();
      if (!bundle().contains(key)) fail_at(index_file(), std::string("no ") + key + " entry");
      auto t = bundle().get(key);
      if (t.strings.size() != 1 || !ckpt_graph_->ParseFromString(t.strings[0]))
        fail_at(index_file(), std::string(key) + " is not a TrackableObjectGraph");
    }
    return *ckpt_graph_;
  }

  std::shared_ptr<VariableState> variable(const tensorflow::NodeDef& n) {
    if (auto it = variables_.find(n.name()); it != variables_.end()) return it->second;
    const std::string where = file_ + ": node '" + n.name() + "'";
    auto dt_attr = n.attr().find("dtype");
    if (dt_attr == n.attr().end()) fail("VarHandleOp '" + n.name() + "' has no dtype");
    DType dt = savedmodel::detail::dtype_from_proto(dt_attr->second.type(), where);
    PartialShape shape;
    if (auto s = n.attr().find("shape"); s != n.attr().end())
      shape = savedmodel::detail::shape_from_proto(s->second.shape(), where);
    auto key = var_keys_.find(n.name());
    if (key == var_keys_.end())
      fail("variable '" + n.name() + "' is not restored from the checkpoint");
    std::shared_ptr<VariableState> var;
    if (auto o = handle_object_.find(n.name()); o != handle_object_.end())
      var = object_variable(o->second);
    if (!var) var = variable_for_key(key->second, dt, shape, key->second, n.name(), true);
    variables_[n.name()] = var;
    return var;
  }

  LoadedSignature build_signature(const std::string& key, const tensorflow::SignatureDef& sd,
                                  FunctionImporter& fns,
                                  const std::shared_ptr<FunctionLibrary>& library) {
    const std::string where = "signature '" + key + "'";
    LoadedSignature ls;
    ls.key_ = key;
    auto infos = [&](const auto& map, std::vector<SignatureTensor>& out) {
      for (const auto& [k, info] : map) {
        if (info.name().empty()) fail(where + ": " + k + " is not a dense tensor");
        SignatureTensor t;
        t.key = k;
        t.tensor = info.name();
        t.dtype = savedmodel::detail::dtype_from_proto(info.dtype(), file_ + ": " + where);
        t.shape = savedmodel::detail::shape_from_proto(info.tensor_shape(), file_);
        out.push_back(std::move(t));
      }
      std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.key < b.key; });
    };
    infos(sd.inputs(), ls.inputs_);
    infos(sd.outputs(), ls.outputs_);

    // Which nodes the outputs need.
    std::map<std::string, const SignatureTensor*> fed;
    for (const auto& in : ls.inputs_) {
      TensorRef r = parse_ref(in.tensor);
      if (r.index != 0 || !find(r.node))
        fail(where + ": input " + in.key + " names no node (" + in.tensor + ")");
      fed[r.node] = &in;
    }
    std::set<std::string> needed;
    std::vector<std::string> stack;
    for (const auto& out : ls.outputs_) {
      TensorRef r = parse_ref(out.tensor);
      if (!find(r.node))
        fail(where + ": output " + out.key + " names no node (" + out.tensor + ")");
      stack.push_back(r.node);
    }
    while (!stack.empty()) {
      std::string n = stack.back();
      stack.pop_back();
      if (!needed.insert(n).second || fed.count(n)) continue;
      const auto* nd = find(n);
      if (!nd) fail(where + ": input '" + n + "' names no node");
      for (const auto& in : nd->input()) stack.push_back(input_node(in));
    }
    std::vector<const tensorflow::NodeDef*> subset;
    for (const auto& n : needed) subset.push_back(find(n));
    std::vector<const tensorflow::NodeDef*> order;
    {
      // Fed nodes have no inputs in this function.
      auto dep = [&](const std::string& s) { return input_node(s); };
      order = savedmodel::detail::topological_order(subset, dep, file_);
    }

    auto fn = std::make_shared<GraphFunction>();
    fn->name = key;
    fn->graph = std::make_shared<Graph>(key);
    Graph& g = *fn->graph;
    const OpDef& ph = OpRegistry::global().get("Placeholder");
    std::map<std::string, Node*> built;
    std::map<std::string, Node*> input_nodes;
    std::vector<Node*> resource_args;
    for (const auto* nd : order) {
      const std::string at = file_ + ": node '" + nd->name() + "'";
      Node* n = nullptr;
      if (auto f = fed.find(nd->name()); f != fed.end()) {
        n = g.add_node_raw(ph, nd->name(), {},
                           {{"dtype", f->second->dtype}, {"shape", f->second->shape}},
                           {f->second->dtype}, {f->second->shape});
        input_nodes[f->second->key] = n;
      } else if (nd->op() == "VarHandleOp") {
        auto var = variable(*nd);
        n = g.add_node_raw(ph, nd->name(), {},
                           {{"dtype", DType::kResource}, {"shape", PartialShape{}}},
                           {DType::kResource}, {PartialShape{}});
        resource_args.push_back(n);
        ls.variables_.push_back(var);
      } else if (nd->op() == "Placeholder") {
        fail(where + " needs placeholder '" + nd->name() + "', which is not one of its inputs");
      } else {
        const OpDef& def = savedmodel::detail::require_op(nd->op(), nd->name(), file_);
        AttrMap attrs = savedmodel::detail::attrs_from_proto(*nd, def, fns);
        std::vector<Output> inputs;
        std::vector<Node*> controls;
        for (const auto& s : nd->input()) {
          if (s.empty()) fail("node '" + nd->name() + "' has an empty input");
          Node* src = built.at(input_node(s));
          if (s[0] == '^') {
            controls.push_back(src);
            continue;
          }
          int idx = parse_ref(s).index;
          if (idx >= src->num_outputs())
            fail("node '" + nd->name() + "': input '" + s + "' is out of range");
          inputs.push_back({src, idx});
        }
        try {
          n = g.add_node(nd->op(), nd->name() + "/", std::move(inputs), std::move(attrs), controls);
        } catch (const FormatError&) {
          throw;
        } catch (const std::exception& e) {
          fail_at(at, first_line(e.what()));
        }
        savedmodel::detail::refine_output_shapes(*n);
        for (const auto& [k, v] : n->attrs)
          if (const auto* fa = std::get_if<FuncAttr>(&v)) g.add_function(library->at(fa->name));
      }
      built[nd->name()] = n;
    }
    for (const auto& in : ls.inputs_) {
      auto it = input_nodes.find(in.key);
      if (it == input_nodes.end()) {
        // An input no output depends on: still a parameter of the signature.
        TensorRef r = parse_ref(in.tensor);
        Node* n =
            g.add_node_raw(ph, built.count(r.node) ? r.node + "_unused" : r.node, {},
                           {{"dtype", in.dtype}, {"shape", in.shape}}, {in.dtype}, {in.shape});
        it = input_nodes.emplace(in.key, n).first;
      }
      fn->args.push_back(it->second);
      fn->arg_names.push_back(in.key);
    }
    for (Node* r : resource_args) {
      fn->args.push_back(r);
      fn->arg_names.push_back(r->name);
    }
    for (const auto& out : ls.outputs_) {
      TensorRef r = parse_ref(out.tensor);
      Node* n = built.at(r.node);
      if (r.index >= n->num_outputs()) fail(where + ": output " + out.tensor + " is out of range");
      fn->outputs.push_back({n, r.index});
      fn->output_names.push_back(out.key);
    }
    fn->is_stateful = true;
    ls.fn_ = fn;
    ls.library_ = library;
    ls.executor_ = Executor::for_function(*fn, library);
    return ls;
  }

  std::string dir_;
  std::string file_;
  tensorflow::SavedModel model_;
  const tensorflow::MetaGraphDef* mg_ = nullptr;
  std::map<std::string, const tensorflow::NodeDef*> nodes_;
  std::map<std::string, std::string> var_keys_;  // VarHandleOp node -> checkpoint key
  std::map<std::string, std::shared_ptr<VariableState>> variables_;  // by VarHandleOp node
  std::map<std::string, int> handle_object_;                      // VarHandleOp node -> object id
  std::map<int, std::string> object_keys_;                        // object id -> checkpoint key
  std::map<std::string, std::shared_ptr<VariableState>> by_key_;  // by checkpoint key
  std::unique_ptr<savedmodel::BundleReader> bundle_;
  std::unique_ptr<tensorflow::TrackableObjectGraph> ckpt_graph_;
};

std::shared_ptr<LoadedModel> load(const std::string& dir) {
  try {
    return Loader(dir).run();
  } catch (const FormatError&) {
    throw;
  } catch (const std::exception& e) {
    throw FormatError("[savedmodel] " + dir + ": " + first_line(e.what()));
  }
}

const LoadedSignature& LoadedModel::signature(const std::string& key) const {
  auto it = signatures_.find(key);
  if (it == signatures_.end()) {
    std::string have;
    for (const auto& [k, s] : signatures_) have += (have.empty() ? "" : ", ") + k;
    throw Error(ErrorKind::kValueError, "[savedmodel] " + dir_ + ": no signature '" + key +
                                            "' (has: " + (have.empty() ? "none" : have) + ")");
  }
  return it->second;
}

std::vector<Tensor> LoadedSignature::call_flat(const std::vector<Tensor>& inputs) const {
  if (inputs.size() != inputs_.size()) {
    invalid_argument("[savedmodel] signature " + key_ + " takes " + std::to_string(inputs_.size()) +
                     " inputs, got " + std::to_string(inputs.size()));
  }
  std::vector<Tensor> feeds = inputs;
  for (const auto& v : variables_) feeds.push_back(Tensor::resource(v));
  return executor_->run(feeds);
}

NamedTensors LoadedSignature::call(const NamedTensors& inputs) const {
  std::vector<Tensor> flat(inputs_.size());
  for (const auto& [k, t] : inputs) {
    auto it =
        std::find_if(inputs_.begin(), inputs_.end(), [&k = k](auto& s) { return s.key == k; });
    if (it == inputs_.end())
      type_error("signature_wrapper(" + key_ + ") got an unexpected keyword argument '" + k + "'");
    flat[static_cast<size_t>(it - inputs_.begin())] = t;
  }
  for (size_t i = 0; i < flat.size(); ++i) {
    if (!flat[i].defined())
      type_error("signature_wrapper(" + key_ + ") missing required argument '" + inputs_[i].key +
                 "'");
  }
  auto outs = call_flat(flat);
  NamedTensors r;
  for (size_t i = 0; i < outs.size(); ++i) r.emplace_back(outputs_[i].key, outs[i]);
  return r;
}

GraphReport LoadedSignature::report() const {
  GraphReport r = report_function(*fn_);
  r.function_name = key_;
  r.inputs.clear();
  std::string sig = "(";
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const auto& in = inputs_[i];
    const Node* a = fn_->args[i];
    r.inputs.push_back({a->name, in.dtype, in.shape});
    sig += (i ? ", " : "") + in.key + ": " + TensorSpec(in.shape, in.dtype, in.key).repr();
  }
  sig += ") -> {";
  for (size_t i = 0; i < outputs_.size(); ++i) {
    sig += (i ? ", " : "") + std::string("'") + outputs_[i].key +
           "': " + TensorSpec(outputs_[i].shape, outputs_[i].dtype, outputs_[i].key).repr();
  }
  r.input_signature = sig + "}";
  for (size_t i = 0; i < variables_.size(); ++i) {
    const Node* a = fn_->args[inputs_.size() + i];
    r.captures.push_back(
        CaptureInfo{a->name, variables_[i]->dtype(), variables_[i]->shape(), "resource"});
  }
  return r;
}

}  // namespace tfs::saved_model
