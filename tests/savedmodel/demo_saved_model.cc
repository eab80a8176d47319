#include "demo_saved_model.h"

#include <cstring>
#include <filesystem>
#include <vector>

#include "tfscope/proto/variable.pb.h"
#include "tfscope/saved_model_io.h"

namespace tfs::savedmodel::testing {
namespace {

using tensorflow::AttrValue;
using tensorflow::NodeDef;

struct Weights {
  std::vector<float> w, b;
  Weights() {
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 3; ++c) w.push_back(0.5f * r - 0.25f * c + 0.125f);
    }
    b = {0.5f, -0.25f, 0.0f};
  }
};

std::string raw(const std::vector<float>& v) {
  std::string s(v.size() * sizeof(float), '\0');
  std::memcpy(s.data(), v.data(), s.size());
  return s;
}

void set_shape(tensorflow::TensorShapeProto* s, std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) s->add_dim()->set_size(d);
}

AttrValue type_attr(tensorflow::DataType t) {
  AttrValue a;
  a.set_type(t);
  return a;
}

AttrValue shape_attr(std::initializer_list<int64_t> dims) {
  AttrValue a;
  set_shape(a.mutable_shape(), dims);
  return a;
}

NodeDef& add(tensorflow::GraphDef& g, const std::string& name, const std::string& op,
             std::initializer_list<std::string> inputs = {}) {
  NodeDef& n = *g.add_node();
  n.set_name(name);
  n.set_op(op);
  for (const auto& i : inputs) n.add_input(i);
  return n;
}

void float_const(tensorflow::GraphDef& g, const std::string& name, const std::vector<float>& v,
                 std::initializer_list<int64_t> dims) {
  NodeDef& n = add(g, name, "Const");
  (*n.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
  auto* t = (*n.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_FLOAT);
  set_shape(t->mutable_tensor_shape(), dims);
  t->set_tensor_content(raw(v));
}

void string_const(tensorflow::GraphDef& g, const std::string& name,
                  const std::vector<std::string>& v, bool scalar) {
  NodeDef& n = add(g, name, "Const");
  (*n.mutable_attr())["dtype"] = type_attr(tensorflow::DT_STRING);
  auto* t = (*n.mutable_attr())["value"].mutable_tensor();
  t->set_dtype(tensorflow::DT_STRING);
  if (!scalar) set_shape(t->mutable_tensor_shape(), {static_cast<int64_t>(v.size())});
  for (const auto& s : v) t->add_string_val(s);
}

// VarHandleOp + zero initializer + ReadVariableOp, and the VariableDef that lets the loader lift
// it to a tf.Variable.
std::string variable(tensorflow::GraphDef& g, const std::string& name,
                     std::initializer_list<int64_t> dims, size_t elements) {
  NodeDef& h = add(g, name, "VarHandleOp");
  (*h.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
  (*h.mutable_attr())["shape"] = shape_attr(dims);
  (*h.mutable_attr())["shared_name"].set_s(name);
  (*h.mutable_attr())["container"].set_s("");
  float_const(g, name + "/Initializer/zeros", std::vector<float>(elements, 0.0f), dims);
  NodeDef& assign =
      add(g, name + "/Assign", "AssignVariableOp", {name, name + "/Initializer/zeros"});
  (*assign.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
  NodeDef& read = add(g, name + "/Read/ReadVariableOp", "ReadVariableOp", {name});
  (*read.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
  tensorflow::VariableDef def;
  def.set_variable_name(name + ":0");
  def.set_initializer_name(name + "/Assign");
  def.set_snapshot_name(name + "/Read/ReadVariableOp:0");
  def.set_initial_value_name(name + "/Initializer/zeros:0");
  def.set_is_resource(true);
  def.set_trainable(true);
  return def.SerializeAsString();
}

}  // namespace

void write_demo_saved_model(const std::string& dir, bool variables) {
  const Weights weights;
  tensorflow::SavedModel model;
  model.set_saved_model_schema_version(1);
  tensorflow::MetaGraphDef& mg = *model.add_meta_graphs();
  mg.mutable_meta_info_def()->add_tags(kTagServe);
  tensorflow::GraphDef& g = *mg.mutable_graph_def();
  g.mutable_versions()->set_producer(2474);
  g.mutable_versions()->set_min_consumer(12);

  NodeDef& x = add(g, "x", "Placeholder");
  (*x.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
  (*x.mutable_attr())["shape"] = shape_attr({-1, 4});
  std::string w_value = "W", b_value = "b";
  if (variables) {
    const std::string w_def = variable(g, "W", {4, 3}, 12);
    const std::string b_def = variable(g, "b", {3}, 3);
    w_value = "W/Read/ReadVariableOp";
    b_value = "b/Read/ReadVariableOp";
    for (const char* key : {"variables", "trainable_variables"}) {
      auto* list = mg.mutable_collection_def()->operator[](key).mutable_bytes_list();
      list->add_value(w_def);
      list->add_value(b_def);
    }
    // The restore subgraph: RestoreV2 reads the bundle named by save/Const, then assigns.
    string_const(g, "save/Const", {"model"}, true);
    string_const(g, "save/RestoreV2/tensor_names", {"W", "b"}, false);
    string_const(g, "save/RestoreV2/shape_and_slices", {"", ""}, false);
    NodeDef& restore =
        add(g, "save/RestoreV2", "RestoreV2",
            {"save/Const", "save/RestoreV2/tensor_names", "save/RestoreV2/shape_and_slices"});
    auto* dtypes = (*restore.mutable_attr())["dtypes"].mutable_list();
    dtypes->add_type(tensorflow::DT_FLOAT);
    dtypes->add_type(tensorflow::DT_FLOAT);
    NodeDef& a0 = add(g, "save/AssignVariableOp", "AssignVariableOp", {"W", "save/RestoreV2"});
    (*a0.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
    NodeDef& a1 = add(g, "save/AssignVariableOp_1", "AssignVariableOp", {"b", "save/RestoreV2:1"});
    (*a1.mutable_attr())["dtype"] = type_attr(tensorflow::DT_FLOAT);
    add(g, "save/restore_all", "NoOp", {"^save/AssignVariableOp", "^save/AssignVariableOp_1"});
    // Saver needs a save path too: SaveV2 of the reads, and the filename passed through.
    NodeDef& save =
        add(g, "save/SaveV2", "SaveV2",
            {"save/Const", "save/RestoreV2/tensor_names", "save/RestoreV2/shape_and_slices",
             "W/Read/ReadVariableOp", "b/Read/ReadVariableOp"});
    auto* save_dtypes = (*save.mutable_attr())["dtypes"].mutable_list();
    save_dtypes->add_type(tensorflow::DT_FLOAT);
    save_dtypes->add_type(tensorflow::DT_FLOAT);
    NodeDef& saved = add(g, "save/control_dependency", "Identity", {"save/Const", "^save/SaveV2"});
    (*saved.mutable_attr())["T"] = type_attr(tensorflow::DT_STRING);
    tensorflow::SaverDef& saver = *mg.mutable_saver_def();
    saver.set_filename_tensor_name("save/Const:0");
    saver.set_save_tensor_name("save/control_dependency:0");
    saver.set_restore_op_name("save/restore_all");
    saver.set_version(tensorflow::SaverDef::V2);
  } else {
    float_const(g, "W", weights.w, {4, 3});
    float_const(g, "b", weights.b, {3});
  }
  NodeDef& mm = add(g, "MatMul", "MatMul", {"x", w_value});
  (*mm.mutable_attr())["T"] = type_attr(tensorflow::DT_FLOAT);
  (*mm.mutable_attr())["transpose_a"].set_b(false);
  (*mm.mutable_attr())["transpose_b"].set_b(false);
  NodeDef& ba = add(g, "BiasAdd", "BiasAdd", {"MatMul", b_value});
  (*ba.mutable_attr())["T"] = type_attr(tensorflow::DT_FLOAT);
  (*ba.mutable_attr())["data_format"].set_s("NHWC");
  NodeDef& y = add(g, "y", "Relu", {"BiasAdd"});
  (*y.mutable_attr())["T"] = type_attr(tensorflow::DT_FLOAT);

  tensorflow::SignatureDef& sig = (*mg.mutable_signature_def())[kDefaultSignatureKey];
  sig.set_method_name(kPredictMethodName);
  auto& in = (*sig.mutable_inputs())["x"];
  in.set_name("x:0");
  in.set_dtype(tensorflow::DT_FLOAT);
  set_shape(in.mutable_tensor_shape(), {-1, 4});
  auto& out = (*sig.mutable_outputs())["y"];
  out.set_name("y:0");
  out.set_dtype(tensorflow::DT_FLOAT);
  set_shape(out.mutable_tensor_shape(), {-1, 3});

  write_saved_model(dir, model);
  std::filesystem::create_directories(std::filesystem::path(dir) / kVariablesDirectory);
  if (variables) {
    write_bundle(variables_prefix(dir),
                 {{"W", 1, {4, 3}, raw(weights.w), {}}, {"b", 1, {3}, raw(weights.b), {}}});
  }
}

}  // namespace tfs::savedmodel::testing
