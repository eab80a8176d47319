// The object graph of a TF 2 SavedModel, node by node as TF's loader recreates it (load.py:
// user objects, variables restored through the checkpoint, functions whose traces are the
// SavedConcreteFunctions, bare concrete functions, constants, assets), and calls of a restored
// concrete function (function_deserialization._call_concrete_function: the tensor leaves of
// the input, then the bound inputs).
#include "object_graph.h"

#include <filesystem>

#include "file_util.h"
#include "structured_value.h"
#include "tfscope/graph_builder.h"
#include "tfscope/proto/fingerprint.pb.h"

namespace tfs::saved_model {

namespace fs = std::filesystem;

const GraphFunction& LoadedConcreteFunction::function() const {
  if (!fn_) throw FormatError(import_error_);
  return *fn_;
}

std::vector<Tensor> LoadedConcreteFunction::call_flat(const std::vector<Tensor>& inputs) const {
  const GraphFunction& fn = function();
  if (inputs.size() + captured_.size() != fn.args.size())
    invalid_argument("[savedmodel] " + name_ + " takes " +
                     std::to_string(fn.args.size() - captured_.size()) + " inputs, got " +
                     std::to_string(inputs.size()));
  if (executing_eagerly()) {
    std::vector<Tensor> feeds = inputs;
    feeds.insert(feeds.end(), captured_.begin(), captured_.end());
    return executor_->run(feeds);
  }
  auto* b = dynamic_cast<FuncGraphBuilder*>(current_builder());
  if (!b) invalid_argument("[savedmodel] a call of " + name_ + " needs a function graph");
  auto as_input = [&](const Tensor& t) {
    if (t.is_symbolic() && t.graph() == b->graph()) return t;
    return b->capture(t, std::string());
  };
  std::vector<Tensor> feeds;
  for (const Tensor& t : inputs) feeds.push_back(as_input(t));
  for (const Tensor& t : captured_) feeds.push_back(as_input(t));
  b->graph()->add_function(fn_);
  AttrMap attrs = {{"f", FuncAttr{fn.name}},        {"Tin", fn.arg_dtypes()},
                   {"Tout", fn.output_dtypes()},    {"config", std::string()},
                   {"config_proto", std::string()}, {"executor_type", std::string()}};
  const char* op = fn.is_stateful ? "StatefulPartitionedCall" : "PartitionedCall";
  std::vector<Tensor> outs = execute(op, feeds, std::move(attrs), op);
  std::vector<PartialShape> in_shapes;
  for (const Tensor& t : feeds) in_shapes.push_back(t.shape());
  std::vector<PartialShape> shapes = infer_call_output_shapes(fn, in_shapes);
  for (size_t i = 0; i < outs.size() && i < shapes.size(); ++i)
    outs[i] = b->refine_shape(outs[i], shapes[i]);
  return outs;
}

const LoadedConcreteFunction& LoadedModel::concrete_function(const std::string& name) const {
  auto it = concrete_functions_.find(name);
  if (it == concrete_functions_.end())
    throw Error(ErrorKind::kValueError,
                "[savedmodel] " + dir_ + ": no concrete function '" + name + "'");
  return *it->second;
}

namespace detail {

ObjectGraphLoader::ObjectGraphLoader(const tensorflow::MetaGraphDef& mg, std::string dir,
                                     std::string file, savedmodel::detail::FunctionImporter& fns,
                                     std::shared_ptr<FunctionLibrary> library)
    : mg_(mg),
      dir_(std::move(dir)),
      file_(std::move(file)),
      fns_(fns),
      library_(std::move(library)) {}

void ObjectGraphLoader::fail(const std::string& what) const {
  throw FormatError("[savedmodel] " + file_ + ": " + what);
}

namespace {

void read_spec(const tensorflow::FunctionSpec& spec, const std::string& where, LoadedObject& o) {
  o.fullargspec = savedmodel::detail::structured_to_value(spec.fullargspec(), where);
  o.is_method = spec.is_method();
  o.input_signature = savedmodel::detail::structured_to_value(spec.input_signature(), where);
}

}  // namespace

void ObjectGraphLoader::run(LoadedModel& out,
                            const std::function<std::shared_ptr<VariableState>(int)>& variable) {
  const auto& og = mg_.object_graph_def();
  out.objects_.resize(static_cast<size_t>(og.nodes_size()));
  std::map<std::string, const tensorflow::NodeDef*> graph_nodes;
  for (const auto& n : mg_.graph_def().node()) graph_nodes[n.name()] = &n;
  for (int i = 0; i < og.nodes_size(); ++i) {
    const auto& node = og.nodes(i);
    LoadedObject& o = out.objects_[static_cast<size_t>(i)];
    const std::string where = file_ + ": object " + std::to_string(i);
    for (const auto& c : node.children()) {
      if (c.node_id() < 0 || c.node_id() >= og.nodes_size())
        fail("object " + std::to_string(i) + ": child '" + c.local_name() + "' is node " +
             std::to_string(c.node_id()) + ", out of range");
      o.children.emplace_back(c.local_name(), c.node_id());
    }
    using K = tensorflow::SavedObject;
    switch (node.kind_case()) {
      case K::kUserObject:
        o.kind = "user_object";
        o.identifier = node.user_object().identifier();
        break;
      case K::kVariable:
        o.kind = "variable";
        o.variable = variable(i);
        break;
      case K::kFunction:
        o.kind = "function";
        for (const auto& f : node.function().concrete_functions())
          o.concrete_functions.push_back(f);
        read_spec(node.function().function_spec(), where, o);
        break;
      case K::kBareConcreteFunction: {
        const auto& b = node.bare_concrete_function();
        o.kind = "bare_concrete_function";
        o.concrete_functions.push_back(b.concrete_function_name());
        for (const auto& k : b.argument_keywords()) o.argument_keywords.push_back(k);
        o.allowed_positional_arguments = b.allowed_positional_arguments();
        if (b.has_function_spec()) read_spec(b.function_spec(), where, o);
        break;
      }
      case K::kConstant: {
        o.kind = "constant";
        auto n = graph_nodes.find(node.constant().operation());
        if (n == graph_nodes.end() || n->second->op() != "Const" ||
            !n->second->attr().count("value"))
          fail("object " + std::to_string(i) + ": constant '" + node.constant().operation() +
               "' is not a Const node of the graph");
        o.constant =
            savedmodel::detail::tensor_from_proto(n->second->attr().at("value").tensor(), where);
        break;
      }
      case K::kAsset: {
        o.kind = "asset";
        int idx = node.asset().asset_file_def_index();
        if (idx < 0 || idx >= mg_.asset_file_def_size())
          fail("object " + std::to_string(i) + ": asset index " + std::to_string(idx) +
               " is out of range");
        o.asset_path = (fs::path(dir_) / "assets" / mg_.asset_file_def(idx).filename()).string();
        break;
      }
      case K::kResource:
        o.kind = "resource";
        break;
      case K::kCapturedTensor:
        o.kind = "captured_tensor";
        break;
      default:
        break;
    }
  }
  for (const auto& [name, cf] : og.concrete_functions()) concrete(name, out);
}

std::shared_ptr<LoadedConcreteFunction> ObjectGraphLoader::concrete(const std::string& name,
                                                                    LoadedModel& out) {
  const auto& og = mg_.object_graph_def();
  const auto& saved = og.concrete_functions().at(name);
  auto cf = std::make_shared<LoadedConcreteFunction>();
  cf->name_ = name;
  const std::string where = file_ + ": concrete function '" + name + "'";
  cf->input_signature_ =
      savedmodel::detail::structured_to_value(saved.canonicalized_input_signature(), where);
  cf->output_signature_ = savedmodel::detail::structured_to_value(saved.output_signature(), where);
  try {
    for (int id : saved.bound_inputs()) {
      if (id < 0 || id >= og.nodes_size())
        fail("concrete function '" + name + "': bound input " + std::to_string(id) +
             " is out of range");
      const LoadedObject& o = out.objects_[static_cast<size_t>(id)];
      if (o.kind == "variable") {
        cf->captured_.push_back(Tensor::resource(o.variable));
      } else if (o.kind == "constant") {
        cf->captured_.push_back(o.constant);
      } else {
        fail("concrete function '" + name + "': bound input " + std::to_string(id) + " is a " +
             (o.kind.empty() ? std::string("node of no kind") : o.kind) +
             "; tfscope restores variables and constants");
      }
    }
    cf->fn_ = fns_.get(name);
    cf->library_ = library_;
    cf->executor_ = Executor::for_function(*cf->fn_, library_);
  } catch (const std::exception& e) {
    std::string msg = e.what();
    cf->import_error_ = msg.substr(0, msg.find('\n'));
    cf->fn_.reset();
  }
  out.concrete_functions_[name] = cf;
  return cf;
}

std::optional<Fingerprint> read_fingerprint(const std::string& dir) {
  const fs::path p = fs::path(dir) / savedmodel::kFingerprintFilename;
  std::error_code ec;
  if (!fs::exists(p, ec)) return std::nullopt;
  tensorflow::FingerprintDef def;
  if (!def.ParseFromString(savedmodel::detail::read_file(p.string())))
    throw FormatError("[savedmodel] " + p.string() + ": not a FingerprintDef");
  Fingerprint f;
  f.saved_model_checksum = def.saved_model_checksum();
  f.graph_def_program_hash = def.graph_def_program_hash();
  f.signature_def_hash = def.signature_def_hash();
  f.saved_object_graph_hash = def.saved_object_graph_hash();
  f.checkpoint_hash = def.checkpoint_hash();
  f.producer = def.version().producer();
  f.uuid = def.uuid();
  return f;
}

}  // namespace detail

}  // namespace tfs::saved_model
