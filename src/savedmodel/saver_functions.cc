// TF 2.21's saver functions, node by node as tf.saved_model.save traces them (checked against the
// oracle's files: conformance/saved_model/objects.py "saver"). Both functions take the file
// prefix first, then one resource per variable; save also takes the serialized object graph.
#include "saver_functions.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "graph_convert.h"
#include "tfscope/graph.h"

namespace tfs::savedmodel::detail {

namespace {

using tensorflow::FunctionDef;
using tensorflow::NodeDef;

// The ConfigProto TF's saving session records on every call in the main graph (CPU-only TF
// 2.21: device_count {CPU: 1, GPU: 0}, allow_soft_placement, empty gpu/experimental options).
constexpr char kCallConfigProto[] =
    "\n\x07\n\x03"
    "CPU\x10\x01\n\x07\n\x03"
    "GPU\x10\x00"
    "2\x02J\x00"
    "8\x01\x82\x01\x00\x92\x01\x02J\x00";

// TF's NodeNameMapping::Normalize: lowercase, every other non-alphanumeric character '_',
// starting at the first letter ("unknown" without one).
std::string normalize(std::string name) {
  for (char& c : name) {
    const auto u = static_cast<unsigned char>(c);
    c = std::isalnum(u) ? static_cast<char>(std::tolower(u)) : '_';
  }
  size_t i = 0;
  while (i < name.size() && !std::isalpha(static_cast<unsigned char>(name[i]))) ++i;
  return i == name.size() ? "unknown" : name.substr(i);
}

// Argument names unique within a function, as NodeNameMapping makes them (name, name_0, ...).
class ArgNames {
 public:
  std::string operator()(const std::string& base) {
    auto [it, fresh] = used_.emplace(base, 0);
    if (fresh) return base;
    for (;;) {
      std::string c = base + "_" + std::to_string(it->second++);
      if (used_.emplace(c, 0).second) return c;
    }
  }

 private:
  std::map<std::string, int> used_;
};

enum class Dev { kNone, kCpu0, kCpuAny };

NodeDef& node(FunctionDef& fd, const std::string& name, const std::string& op,
              std::vector<std::string> inputs, Dev dev) {
  NodeDef& n = *fd.add_node_def();
  n.set_name(name);
  n.set_op(op);
  for (auto& i : inputs) n.add_input(i);
  if (dev != Dev::kNone) n.set_device(dev == Dev::kCpu0 ? "/device:CPU:0" : "/device:CPU:*");
  return n;
}

void type_attr(NodeDef& n, const std::string& key, DType t) {
  (*n.mutable_attr())[key].set_type(static_cast<tensorflow::DataType>(t));
}

void types_attr(NodeDef& n, const std::string& key, const std::vector<DType>& ts) {
  auto* l = (*n.mutable_attr())[key].mutable_list();
  for (DType t : ts) l->add_type(static_cast<tensorflow::DataType>(t));
}

void manual_deps(NodeDef& n) {
  (*n.mutable_attr())["_has_manual_control_dependencies"].set_b(true);
}

// _output_shapes: one entry per output (none for NoOp-like ops); nullopt is an unknown rank.
void out_shapes(NodeDef& n, const std::vector<std::optional<PartialShape>>& shapes) {
  auto* l = (*n.mutable_attr())["_output_shapes"].mutable_list();
  for (const auto& s : shapes) {
    auto* p = l->add_shape();
    if (s)
      shape_to_proto(*s, p);
    else
      p->set_unknown_rank(true);
  }
}

const PartialShape kScalar = PartialShape(std::vector<int64_t>{});

PartialShape vec(int64_t n) {
  return PartialShape(std::vector<int64_t>{n});
}

void string_const(FunctionDef& fd, const std::string& name, const std::vector<std::string>& values,
                  bool scalar, Dev dev) {
  NodeDef& n = node(fd, name, "Const", {}, dev);
  const PartialShape shape = scalar ? kScalar : vec(static_cast<int64_t>(values.size()));
  out_shapes(n, {shape});
  type_attr(n, "dtype", DType::kString);
  auto* t = (*n.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_STRING);
  shape_to_proto(shape, t->mutable_tensor_shape());
  for (const auto& v : values) t->add_string_val(v);
}

void int_const(FunctionDef& fd, const std::string& name, int32_t value, Dev dev) {
  NodeDef& n = node(fd, name, "Const", {}, dev);
  out_shapes(n, {kScalar});
  type_attr(n, "dtype", DType::kInt32);
  auto* t = (*n.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_INT32);
  t->mutable_tensor_shape();
  t->add_int_val(value);
}

void identity(FunctionDef& fd, const std::string& name, std::vector<std::string> inputs, DType t,
              const std::optional<PartialShape>& shape, Dev dev) {
  NodeDef& n = node(fd, name, "Identity", std::move(inputs), dev);
  type_attr(n, "T", t);
  out_shapes(n, {shape});
}

// Signature args: the file prefix (a scalar string), then `resources` (one per variable, with
// its handle data), then `extra` string scalars. Arg attrs and _input_shapes as TF writes them.
void signature(FunctionDef& fd, const std::string& name, const std::vector<SaverVariable>& vars,
               const std::vector<std::string>& resource_args,
               const std::vector<std::pair<std::string, std::string>>& extra,
               const std::string& output) {
  auto* sig = fd.mutable_signature();
  sig->set_name(name);
  auto arg_attrs = [&](bool scalar, const std::string& user_name) {
    auto& a =
        *(*fd.mutable_arg_attr())[static_cast<uint32_t>(sig->input_arg_size() - 1)].mutable_attr();
    if (scalar) a["_output_shapes"].mutable_list()->add_shape();
    a["_user_specified_name"].set_s(user_name);
  };
  auto* in = sig->add_input_arg();
  in->set_name("file_prefix");
  in->set_type(tensorflow::DT_STRING);
  arg_attrs(true, "file_prefix");
  for (size_t i = 0; i < vars.size(); ++i) {
    auto* r = sig->add_input_arg();
    r->set_name(resource_args[i]);
    r->set_type(tensorflow::DT_RESOURCE);
    auto* h = r->add_handle_data();
    h->set_dtype(static_cast<tensorflow::DataType>(vars[i].dtype));
    shape_to_proto(vars[i].shape, h->mutable_shape());
    arg_attrs(false, vars[i].handle);
  }
  for (const auto& [arg, user] : extra) {
    auto* e = sig->add_input_arg();
    e->set_name(arg);
    e->set_type(tensorflow::DT_STRING);
    arg_attrs(true, user);
  }
  auto* out = sig->add_output_arg();
  out->set_name(normalize(output));
  out->set_type(tensorflow::DT_STRING);
  sig->set_is_stateful(true);
  auto& fa = *fd.mutable_attr();
  fa["_construction_context"].set_s("kEagerRuntime");
  auto* shapes = fa["_input_shapes"].mutable_list();
  for (int i = 0; i < sig->input_arg_size(); ++i) shapes->add_shape();
  (*fd.mutable_ret())[normalize(output)] = output + ":output:0";
}

void control_outputs(FunctionDef& fd, std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  for (const auto& n : names) {
    fd.mutable_signature()->add_control_output(n);
    (*fd.mutable_control_ret())[n] = n;
  }
}

std::string numbered(const std::string& base, size_t i) {
  return i == 0 ? base : base + "_" + std::to_string(i);
}

std::vector<std::string> keys(const std::vector<SaverVariable>& vars) {
  std::vector<std::string> out;
  for (const auto& v : vars) out.push_back(v.checkpoint_key);
  out.push_back("_CHECKPOINTABLE_OBJECT_GRAPH");
  return out;
}

std::vector<DType> dtypes(const std::vector<SaverVariable>& vars) {
  std::vector<DType> out;
  for (const auto& v : vars) out.push_back(v.dtype);
  out.push_back(DType::kString);
  return out;
}

FunctionDef save_function(const std::string& name, const std::vector<SaverVariable>& vars,
                          const std::string& object_graph_const) {
  FunctionDef fd;
  ArgNames args;
  args("file_prefix");
  std::vector<std::string> res;
  for (size_t i = 0; i < vars.size(); ++i)
    res.push_back(args(normalize(numbered("Read", i) + "/DisableCopyOnRead/" + vars[i].handle)));
  const std::string const_arg = args(normalize("SaveV2/" + object_graph_const));
  // Identity_<2i>, Identity_<2i+1> per variable, then two for the prefix.
  const std::string output = numbered("Identity", 2 * vars.size() + 1);
  signature(fd, name, vars, res, {{const_arg, object_graph_const}}, output);

  // The temporary prefix: "<prefix>_temp/part", or "<prefix>.part" on s3.
  out_shapes(
      node(fd, "StaticRegexFullMatch", "StaticRegexFullMatch", {"file_prefix"}, Dev::kCpuAny),
      {kScalar});
  (*fd.mutable_node_def(fd.node_def_size() - 1)->mutable_attr())["pattern"].set_s("^s3://.*");
  string_const(fd, "Const", {".part"}, true, Dev::kCpuAny);
  string_const(fd, "Const_1", {"_temp/part"}, true, Dev::kCpuAny);
  {
    NodeDef& n =
        node(fd, "Select", "Select",
             {"StaticRegexFullMatch:output:0", "Const:output:0", "Const_1:output:0"}, Dev::kCpuAny);
    type_attr(n, "T", DType::kString);
    out_shapes(n, {kScalar});
    NodeDef& j =
        node(fd, "StringJoin", "StringJoin", {"file_prefix", "Select:output:0"}, Dev::kCpuAny);
    (*j.mutable_attr())["N"].set_i(2);
    out_shapes(j, {kScalar});
  }
  std::vector<std::string> ctrl = {"MergeV2Checkpoints"};
  std::vector<std::string> saved;
  for (size_t i = 0; i < vars.size(); ++i) {
    const std::string scope = numbered("Read", i);
    out_shapes(node(fd, scope + "/DisableCopyOnRead", "DisableCopyOnRead", {res[i]}, Dev::kNone),
               {});
    NodeDef& r = node(fd, scope + "/ReadVariableOp", "ReadVariableOp",
                      {res[i], "^" + scope + "/DisableCopyOnRead"}, Dev::kNone);
    out_shapes(r, {vars[i].shape});
    type_attr(r, "dtype", vars[i].dtype);
    const std::string a = numbered("Identity", 2 * i), b = numbered("Identity", 2 * i + 1);
    identity(fd, a, {scope + "/ReadVariableOp:value:0"}, vars[i].dtype, vars[i].shape, Dev::kNone);
    identity(fd, b, {a + ":output:0"}, vars[i].dtype, vars[i].shape, Dev::kCpu0);
    saved.push_back(b + ":output:0");
    ctrl.push_back(scope + "/DisableCopyOnRead");
    ctrl.push_back(scope + "/ReadVariableOp");
  }
  int_const(fd, "num_shards", 1, Dev::kNone);
  int_const(fd, "ShardedFilename/shard", 0, Dev::kCpu0);
  out_shapes(node(fd, "ShardedFilename", "ShardedFilename",
                  {"StringJoin:output:0", "ShardedFilename/shard:output:0", "num_shards:output:0"},
                  Dev::kCpu0),
             {kScalar});
  const std::vector<std::string> names = keys(vars);
  string_const(fd, "SaveV2/tensor_names", names, false, Dev::kCpu0);
  string_const(fd, "SaveV2/shape_and_slices", std::vector<std::string>(names.size()), false,
               Dev::kCpu0);
  {
    std::vector<std::string> in = {"ShardedFilename:filename:0", "SaveV2/tensor_names:output:0",
                                   "SaveV2/shape_and_slices:output:0"};
    in.insert(in.end(), saved.begin(), saved.end());
    in.push_back(const_arg);
    NodeDef& s = node(fd, "SaveV2", "SaveV2", in, Dev::kCpu0);
    manual_deps(s);
    out_shapes(s, {});
    types_attr(s, "dtypes", dtypes(vars));
    NodeDef& p = node(fd, "MergeV2Checkpoints/checkpoint_prefixes", "Pack",
                      {"ShardedFilename:filename:0", "^SaveV2"}, Dev::kCpu0);
    (*p.mutable_attr())["N"].set_i(1);
    type_attr(p, "T", DType::kString);
    out_shapes(p, {vec(1)});
    NodeDef& m =
        node(fd, "MergeV2Checkpoints", "MergeV2Checkpoints",
             {"MergeV2Checkpoints/checkpoint_prefixes:output:0", "file_prefix"}, Dev::kCpu0);
    manual_deps(m);
    out_shapes(m, {});
  }
  const std::string last = numbered("Identity", 2 * vars.size());
  identity(fd, last, {"file_prefix", "^MergeV2Checkpoints"}, DType::kString, kScalar, Dev::kCpu0);
  identity(fd, output, {last + ":output:0", "^NoOp"}, DType::kString, kScalar, Dev::kNone);
  std::vector<std::string> noop_in;
  for (const auto& c : ctrl) noop_in.push_back("^" + c);
  std::sort(noop_in.begin(), noop_in.end());
  out_shapes(node(fd, "NoOp", "NoOp", noop_in, Dev::kNone), {});
  control_outputs(fd, ctrl);
  return fd;
}

FunctionDef restore_function(const std::string& name, const std::vector<SaverVariable>& vars) {
  FunctionDef fd;
  ArgNames args;
  args("file_prefix");
  std::vector<std::string> res;
  for (size_t i = 0; i < vars.size(); ++i)
    res.push_back(args(normalize(numbered("AssignVariableOp", i) + "/" + vars[i].handle)));
  const std::string output = numbered("Identity", vars.size() + 1);
  signature(fd, name, vars, res, {}, output);

  const std::vector<std::string> names = keys(vars);
  string_const(fd, "RestoreV2/tensor_names", names, false, Dev::kCpu0);
  string_const(fd, "RestoreV2/shape_and_slices", std::vector<std::string>(names.size()), false,
               Dev::kCpu0);
  {
    NodeDef& r = node(
        fd, "RestoreV2", "RestoreV2",
        {"file_prefix", "RestoreV2/tensor_names:output:0", "RestoreV2/shape_and_slices:output:0"},
        Dev::kCpu0);
    out_shapes(r, std::vector<std::optional<PartialShape>>(names.size()));
    types_attr(r, "dtypes", dtypes(vars));
  }
  std::vector<std::string> assigns;
  for (size_t i = 0; i < vars.size(); ++i) {
    const std::string id = numbered("Identity", i), assign = numbered("AssignVariableOp", i);
    identity(fd, id, {"RestoreV2:tensors:" + std::to_string(i)}, vars[i].dtype, std::nullopt,
             Dev::kCpu0);
    NodeDef& a = node(fd, assign, "AssignVariableOp", {res[i], id + ":output:0"}, Dev::kCpu0);
    manual_deps(a);
    out_shapes(a, {});
    type_attr(a, "dtype", vars[i].dtype);
    assigns.push_back(assign);
  }
  {
    NodeDef& n = node(fd, "NoOp", "NoOp", {}, Dev::kCpu0);
    manual_deps(n);
    out_shapes(n, {});
  }
  const std::string joined = numbered("Identity", vars.size());
  std::vector<std::string> in = {"file_prefix"};
  std::vector<std::string> sorted = assigns;  // control inputs by name, as TF orders them
  std::sort(sorted.begin(), sorted.end());
  for (const auto& a : sorted) in.push_back("^" + a);
  in.push_back("^NoOp");
  identity(fd, joined, in, DType::kString, kScalar, Dev::kCpu0);
  // The automatic control dependencies' NoOp_1 gathers the assignments (none without them).
  if (assigns.empty()) {
    identity(fd, output, {joined + ":output:0"}, DType::kString, kScalar, Dev::kNone);
  } else {
    identity(fd, output, {joined + ":output:0", "^NoOp_1"}, DType::kString, kScalar, Dev::kNone);
    std::vector<std::string> noop_in;
    for (const auto& a : sorted) noop_in.push_back("^" + a);
    out_shapes(node(fd, "NoOp_1", "NoOp", noop_in, Dev::kNone), {});
  }
  control_outputs(fd, assigns);
  return fd;
}

NodeDef& call(tensorflow::GraphDef& g, const std::string& name, const std::string& fn,
              const std::vector<std::string>& inputs, const std::vector<DType>& tin) {
  NodeDef& n = *g.add_node();
  n.set_name(name);
  n.set_op("StatefulPartitionedCall");
  for (const auto& i : inputs) n.add_input(i);
  auto& a = *n.mutable_attr();
  a["f"].mutable_func()->set_name(fn);
  types_attr(n, "Tin", tin);
  types_attr(n, "Tout", {DType::kString});
  a["config_proto"].set_s(std::string(kCallConfigProto, sizeof(kCallConfigProto) - 1));
  a["_collective_manager_ids"].mutable_list();
  a["_read_only_resource_inputs"].mutable_list();
  out_shapes(n, {kScalar});
  return n;
}

}  // namespace

void add_saver(tensorflow::MetaGraphDef& mg, const std::vector<SaverVariable>& variables,
               const std::string& object_graph,
               const std::function<std::string(const std::string&)>& unique) {
  tensorflow::GraphDef& g = *mg.mutable_graph_def();
  const std::string graph_const = unique("Const");
  {
    NodeDef& n = *g.add_node();
    n.set_name(graph_const);
    n.set_op("Const");
    n.set_device("/device:CPU:0");
    type_attr(n, "dtype", DType::kString);
    auto* t = (*n.mutable_attr())["value"].mutable_tensor();
    t->set_dtype(tensorflow::DT_STRING);
    t->mutable_tensor_shape();
    t->add_string_val(object_graph);
    out_shapes(n, {kScalar});
  }
  const std::string filename = unique("saver_filename");
  {
    NodeDef& n = *g.add_node();
    n.set_name(filename);
    n.set_op("Placeholder");
    type_attr(n, "dtype", DType::kString);
    (*n.mutable_attr())["shape"].mutable_shape();
    out_shapes(n, {kScalar});
  }
  // TF traces save before restore: the save function has the smaller uid.
  const std::string save_fn = "__inference__traced_save_" + std::to_string(next_uid());
  const std::string restore_fn = "__inference__traced_restore_" + std::to_string(next_uid());
  *g.mutable_library()->add_function() = save_function(save_fn, variables, graph_const);
  *g.mutable_library()->add_function() = restore_function(restore_fn, variables);

  std::vector<std::string> in = {filename};
  std::vector<DType> tin = {DType::kString};
  for (const auto& v : variables) {
    in.push_back(v.handle);
    tin.push_back(DType::kResource);
  }
  const std::string save_call = unique("StatefulPartitionedCall");
  in.push_back(graph_const);
  tin.push_back(DType::kString);
  call(g, save_call, save_fn, in, tin);
  in.pop_back();
  tin.pop_back();
  const std::string restore_call = unique("StatefulPartitionedCall");
  call(g, restore_call, restore_fn, in, tin);

  tensorflow::SaverDef& saver = *mg.mutable_saver_def();
  saver.set_filename_tensor_name(filename + ":0");
  saver.set_save_tensor_name(save_call + ":0");
  saver.set_restore_op_name(restore_call);
  saver.set_version(tensorflow::SaverDef::V2);
}

}  // namespace tfs::savedmodel::detail
