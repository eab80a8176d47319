// tfs::saved_model: export, import (ours and TF 2.21's, fixtures recorded by
// conformance/saved_model/make_fixtures.py), roundtrip and one-line errors; saving into a
// directory is save_directory_test.cc.
#include "tfscope/saved_model.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "lab_mlp.h"
#include "tfscope/control_flow.h"
#include "tfscope/saved_model_io.h"

namespace fs = std::filesystem;
using namespace tfs;
using tfs::savedmodel::testing::make_lab_mlp;
using tfs::savedmodel::testing::seeded_floats;

namespace {

std::string temp_dir(const std::string& name) {
  // Each test gets its own parent, so that what a save leaves beside its directory shows.
  fs::path p = fs::temp_directory_path() / ("tfscope_sm_test_" + std::to_string(::getpid())) /
               name / "model";
  fs::remove_all(p.parent_path());
  fs::create_directories(p.parent_path());
  return p.string();
}

Tensor probe(int rows, uint32_t seed) {
  return Tensor::from_vector(seeded_floats(static_cast<size_t>(rows) * 4, seed), Shape{rows, 4});
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<std::string> siblings(const std::string& dir) {
  std::vector<std::string> out;
  for (auto& e : fs::directory_iterator(fs::path(dir).parent_path()))
    out.push_back(e.path().filename());
  std::sort(out.begin(), out.end());
  return out;
}

Tensor from_hex_json(const nlohmann::json& j) {
  Tensor t = Tensor::empty(DType::kFloat32, Shape(j.at("shape").get<std::vector<int64_t>>()));
  std::string hex = j.at("hex");
  auto* p = static_cast<unsigned char*>(t.raw_data());
  for (size_t i = 0; i < t.nbytes(); ++i)
    p[i] = static_cast<unsigned char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return t;
}

void copy_fixture(const std::string& name, const std::string& to) {
  fs::copy(std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/" + name, to, fs::copy_options::recursive);
}

}  // namespace

// ---- export ----

TEST(SavedModel, LabMlpRoundtripIsBitExact) {
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("mlp");
  auto r = saved_model::roundtrip_savedmodel(*mlp.fn,
                                             {{probe(1, 1)}, {probe(5, 2)}, {probe(17, 3)}}, dir);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.max_abs_delta, 0.0);
  EXPECT_EQ(r.probes, 3);
  EXPECT_EQ(r.signatures, std::vector<std::string>{"serving_default"});
  EXPECT_EQ(r.files,
            (std::vector<std::string>{"saved_model.pb", "variables/variables.data-00000-of-00001",
                                      "variables/variables.index"}));
}

TEST(SavedModel, ExportIsOneServeMetaGraphWithSignatureNamedAfterParameter) {
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("layout");
  saved_model::save(*mlp.fn, dir);
  auto model = savedmodel::read_saved_model(dir);
  ASSERT_EQ(model.meta_graphs_size(), 1);
  const auto& mg = model.meta_graphs(0);
  EXPECT_EQ(
      std::vector<std::string>(mg.meta_info_def().tags().begin(), mg.meta_info_def().tags().end()),
      std::vector<std::string>{"serve"});
  ASSERT_EQ(mg.signature_def().count("serving_default"), 1u);
  const auto& sig = mg.signature_def().at("serving_default");
  EXPECT_EQ(sig.method_name(), "tensorflow/serving/predict");
  ASSERT_EQ(sig.inputs().count("x"), 1u);
  EXPECT_EQ(sig.inputs().at("x").name(), "x:0");
  EXPECT_EQ(sig.inputs().at("x").dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(sig.outputs().count("output_0"), 1u);
  EXPECT_EQ(mg.saver_def().restore_op_name(), "save/restore_all");
  EXPECT_EQ(mg.graph_def().versions().producer(), 2474);
}

TEST(SavedModel, VariablesAreWrittenExactlyUnderTheirNames) {
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("vars");
  saved_model::save(*mlp.fn, dir);
  savedmodel::BundleReader r(savedmodel::variables_prefix(dir));
  EXPECT_EQ(r.keys(), (std::vector<std::string>{"b1", "b2", "w1", "w2"}));
  auto w1 = r.get("w1");
  EXPECT_EQ(w1.dtype, 1);
  EXPECT_EQ(w1.shape, (std::vector<int64_t>{4, 8}));
  Tensor v = mlp.w1->numpy();
  ASSERT_EQ(w1.data.size(), v.nbytes());
  EXPECT_EQ(std::memcmp(w1.data.data(), v.raw_data(), v.nbytes()), 0);
}

TEST(SavedModel, StaticShapesSurviveTheRoundtrip) {
  // Reads of a variable handle have no static shape for the loader's inference; the exported
  // _output_shapes give them back, so the output is (None, 3), as traced.
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("shapes");
  saved_model::save(*mlp.fn, dir);
  auto model = saved_model::load(dir);
  const GraphFunction& fn = model->signature("serving_default").function();
  ASSERT_EQ(fn.outputs.size(), 1u);
  EXPECT_EQ(fn.outputs[0].node->output_shapes[0], (PartialShape{-1, 3}));
}

TEST(SavedModel, LoadedVariablesAreIndependentOfTheOriginals) {
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("indep");
  saved_model::save(*mlp.fn, dir);
  auto model = saved_model::load(dir);
  EXPECT_EQ(model->format(), "tf1");
  Tensor x = probe(2, 9);
  auto before = model->signature("serving_default").call_flat({x})[0].to_vector<float>();
  mlp.b2->assign(Value(Tensor::from_vector(std::vector<float>{100, 100, 100})));
  auto after = model->signature("serving_default").call_flat({x})[0].to_vector<float>();
  EXPECT_EQ(before, after);
}

TEST(SavedModel, FailedSaveLeavesNothingAtTheDestination) {
  // A variable that was never initialized cannot be written.
  auto state = std::make_shared<VariableState>(DType::kFloat32, PartialShape{2}, "u:0", true);
  Variable u(state);
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{2}, DType::kFloat32)};
  auto fn = function(
      "f", {"x"}, [u](Tensor x) { return x + Value(u.read_value()); }, opts);
  std::string dir = temp_dir("failed");
  std::string err = error_of([&] { saved_model::save(*fn, dir); });
  EXPECT_NE(err, "(no error)");
  EXPECT_FALSE(fs::exists(dir));
  EXPECT_TRUE(siblings(dir).empty());
}

TEST(SavedModel, FunctionWithoutSignatureNeedsExactlyOneTrace) {
  auto fn = function("double_it", {"x"}, [](Tensor x) { return x * 2.0f; });
  std::string dir = temp_dir("traces");
  EXPECT_NE(error_of([&] { saved_model::save(*fn, dir); }).find("has 0 concrete functions"),
            std::string::npos);
  (*fn)({Tensor::from_vector(std::vector<float>{1, 2})});
  saved_model::save(*fn, dir);
  auto out = saved_model::load(dir)
                 ->signature("serving_default")
                 .call({{"x", Tensor::from_vector(std::vector<float>{1, 2})}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].first, "output_0");
  EXPECT_EQ(out[0].second.to_vector<float>(), (std::vector<float>{2, 4}));
}

TEST(SavedModel, DictOutputsAreKeyedByTheirKeys) {
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1}, DType::kFloat32)};
  auto fn = function(
      "pair", {"x"},
      [](Tensor x) {
        return Value::dict({{Value("sum"), Value(x + 1.0f)}, {Value("prod"), Value(x * 3.0f)}});
      },
      opts);
  std::string dir = temp_dir("dict");
  saved_model::save(*fn, dir);
  auto out = saved_model::load(dir)
                 ->signature("serving_default")
                 .call({{"x", Tensor::from_vector(std::vector<float>{1, 2})}});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].first, "prod");
  EXPECT_EQ(out[0].second.to_vector<float>(), (std::vector<float>{3, 6}));
  EXPECT_EQ(out[1].first, "sum");
  EXPECT_EQ(out[1].second.to_vector<float>(), (std::vector<float>{2, 3}));
}

// ---- import of TF 2.21's SavedModels ----

void expect_matches_tf(const std::string& name) {
  auto model = saved_model::load(std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/" + name);
  EXPECT_EQ(model->format(), "tf2");
  const auto& sig = model->signature("serving_default");
  ASSERT_EQ(sig.inputs().size(), 1u);
  EXPECT_EQ(sig.inputs()[0].key, "x");
  EXPECT_EQ(sig.inputs()[0].tensor, "serving_default_x:0");
  std::ifstream in(std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/" + name + ".json");
  auto j = nlohmann::json::parse(in);
  ASSERT_EQ(j["inputs"].size(), j["outputs"].size());
  for (size_t i = 0; i < j["inputs"].size(); ++i) {
    Tensor want = from_hex_json(j["outputs"][i]);
    auto got = sig.call({{"x", from_hex_json(j["inputs"][i])}});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].first, "output_0");
    ASSERT_EQ(got[0].second.eager_shape(), want.eager_shape());
    auto g = got[0].second.to_vector<float>(), w = want.to_vector<float>();
    float scale = 0;
    for (float v : w) scale = std::max(scale, std::fabs(v));
    for (size_t k = 0; k < w.size(); ++k)
      EXPECT_LE(std::fabs(g[k] - w[k]), 1e-6f * scale) << name << " input " << i;
  }
}

TEST(SavedModel, LoadsTfWrittenMlpAndMatchesTf) {
  expect_matches_tf("tf_mlp");
}

TEST(SavedModel, LoadsTfWrittenCondWithBranchFunctions) {
  expect_matches_tf("tf_gated");
}

TEST(SavedModel, TfVariablesComeFromObjectBasedCheckpointKeys) {
  auto model = saved_model::load(std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/tf_mlp");
  std::vector<std::string> keys;
  for (auto& [k, v] : model->variables()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{
                      "b1/.ATTRIBUTES/VARIABLE_VALUE", "b2/.ATTRIBUTES/VARIABLE_VALUE",
                      "w1/.ATTRIBUTES/VARIABLE_VALUE", "w2/.ATTRIBUTES/VARIABLE_VALUE"}));
  EXPECT_EQ(model->variables().at("w1/.ATTRIBUTES/VARIABLE_VALUE")->shape(), (PartialShape{4, 8}));
}

TEST(SavedModel, TfObjectGraphRestoresTheModuleItsVariablesAndItsFunction) {
  const std::string dir = std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/tf_mlp";
  auto model = saved_model::load(dir);
  const auto& objects = model->objects();
  ASSERT_FALSE(objects.empty());
  EXPECT_EQ(objects[0].kind, "user_object");
  EXPECT_EQ(objects[0].identifier, "_generic_user_object");
  // TF lists a tf.Module's tracked attributes in assignment order, then its functions, then
  // the signatures map it adds.
  std::vector<std::string> names;
  int call = -1;
  for (const auto& [name, id] : objects[0].children) {
    names.push_back(name);
    if (name == "__call__") call = id;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"w1", "b1", "w2", "b2", "__call__", "signatures"}));
  ASSERT_GE(call, 0);
  const auto& fn = objects[static_cast<size_t>(call)];
  EXPECT_EQ(fn.kind, "function");
  ASSERT_EQ(fn.concrete_functions.size(), 1u);
  // Variables are the checkpoint's, shared with the signature.
  const auto& w1 = objects[static_cast<size_t>(objects[0].children[0].second)];
  ASSERT_EQ(w1.kind, "variable");
  EXPECT_EQ(w1.variable->name(), "w1:0");
  EXPECT_EQ(w1.variable, model->variables().at("w1/.ATTRIBUTES/VARIABLE_VALUE"));
  // The restored concrete function: x, then the four variables it binds; TF's outputs.
  const auto& cf = model->concrete_function(fn.concrete_functions[0]);
  EXPECT_EQ(cf.import_error(), "");
  EXPECT_EQ(cf.captured_inputs().size(), 4u);
  ASSERT_EQ(cf.input_signature().kind(), Value::Kind::kTuple);
  const Value& spec = cf.input_signature().items()[0].items()[0];
  ASSERT_EQ(spec.kind(), Value::Kind::kTensorSpec);
  EXPECT_EQ(spec.as_spec().repr(), "TensorSpec(shape=(None, 4), dtype=tf.float32, name='x')");
  std::ifstream in(dir + ".json");
  auto j = nlohmann::json::parse(in);
  for (size_t i = 0; i < j["inputs"].size(); ++i) {
    Tensor want = from_hex_json(j["outputs"][i]);
    auto got = cf.call_flat({from_hex_json(j["inputs"][i])});
    ASSERT_EQ(got.size(), 1u);
    auto g = got[0].to_vector<float>(), w = want.to_vector<float>();
    ASSERT_EQ(g.size(), w.size());
    float scale = 0;
    for (float v : w) scale = std::max(scale, std::fabs(v));
    for (size_t k = 0; k < w.size(); ++k) EXPECT_LE(std::fabs(g[k] - w[k]), 1e-6f * scale);
  }
  EXPECT_THROW(model->concrete_function("__inference_nothing_1"), Error);
}

TEST(SavedModel, ReportListsOpsVariablesAndCalledFunctions) {
  auto model = saved_model::load(std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/tf_mlp");
  GraphReport r = model->signature("serving_default").report();
  EXPECT_EQ(r.op_counts["StatefulPartitionedCall"], 1);
  EXPECT_EQ(r.captures.size(), 4u);
  // The signature wrapper the call node names, and the __call__ it calls; not the save/restore
  // functions, which the signature never reaches.
  ASSERT_EQ(r.library.size(), 2u);
  EXPECT_EQ(r.library[0].rfind("__inference___call___", 0), 0u);
  EXPECT_EQ(r.library[1].rfind("__inference_signature_wrapper_", 0), 0u);
  EXPECT_EQ(model->library().size(), 2u);
}

// ---- errors: one line, naming the file or the op ----

TEST(SavedModel, NotASavedModelDirectoryNamesTheDirectory) {
  std::string dir = temp_dir("empty");
  fs::create_directories(dir);
  std::string err = error_of([&] { saved_model::load(dir); });
  EXPECT_EQ(err, "[savedmodel] " + dir + ": not a SavedModel directory (no saved_model.pb)");
  err = error_of([&] { saved_model::load(dir + "/missing"); });
  EXPECT_EQ(err,
            "[savedmodel] " + dir + "/missing: not a SavedModel directory (no such directory)");
}

TEST(SavedModel, TruncatedSavedModelPbNamesTheFile) {
  std::string dir = temp_dir("truncated");
  copy_fixture("tf_mlp", dir);
  fs::resize_file(dir + "/saved_model.pb", 1000);
  std::string err = error_of([&] { saved_model::load(dir); });
  EXPECT_EQ(err.find('\n'), std::string::npos);
  EXPECT_NE(err.find(dir + "/saved_model.pb"), std::string::npos) << err;
}

TEST(SavedModel, MissingVariablesNameTheIndexFile) {
  std::string dir = temp_dir("novars");
  copy_fixture("tf_mlp", dir);
  fs::remove(dir + "/variables/variables.index");
  std::string err = error_of([&] { saved_model::load(dir); });
  EXPECT_EQ(err.find('\n'), std::string::npos);
  EXPECT_NE(err.find("variables/variables.index"), std::string::npos) << err;
}

TEST(SavedModel, CorruptVariableDataNamesTheDataFile) {
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("corruptvars");
  saved_model::save(*mlp.fn, dir);
  const std::string data = dir + "/variables/variables.data-00000-of-00001";
  std::fstream f(data, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(5);
  f.put('\x7f');
  f.close();
  std::string err = error_of([&] { saved_model::load(dir); });
  EXPECT_EQ(err.find('\n'), std::string::npos);
  EXPECT_NE(err.find("variables.data-00000-of-00001"), std::string::npos) << err;
}

TEST(SavedModel, UnsupportedOpIsNamed) {
  auto mlp = make_lab_mlp();
  std::string dir = temp_dir("unsupported");
  saved_model::save(*mlp.fn, dir);
  auto model = savedmodel::read_saved_model(dir);
  for (auto& n : *model.mutable_meta_graphs(0)->mutable_graph_def()->mutable_node())
    if (n.op() == "Relu") n.set_op("FancyRelu");
  savedmodel::write_saved_model(dir, model);
  std::string err = error_of([&] { saved_model::load(dir); });
  EXPECT_EQ(err,
            "[savedmodel] " + dir + "/saved_model.pb: unsupported op 'FancyRelu' (node 'Relu')");
}

// ---- control flow and several signatures ----

TEST(SavedModel, CondAndWhileBodiesRoundtripAsFunctionDefs) {
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1}, DType::kFloat32)};
  auto fn = function(
      "control", {"x"},
      [](Tensor x) {
        Tensor y = cond(
            reduce_sum(x) > Value(0.0f), [&] { return std::vector<Tensor>{x * 2.0f}; },
            [&] { return std::vector<Tensor>{x - Value(1.0f)}; })[0];
        return while_loop([](const std::vector<Tensor>& v) { return v[0] < Value(3); },
                          [](const std::vector<Tensor>& v) {
                            return std::vector<Tensor>{v[0] + Value(1), v[1] * 1.5f + 1.0f};
                          },
                          {Tensor::scalar<int32_t>(0), y})[1];
      },
      opts);
  std::string dir = temp_dir("control");
  saved_model::save(*fn, dir);
  auto model = savedmodel::read_saved_model(dir);
  EXPECT_GE(model.meta_graphs(0).graph_def().library().function_size(),
            4);  // 2 branches, cond, body
  auto loaded = saved_model::load(dir);
  const auto& sig = loaded->signature("serving_default");
  // 1 + 2 > 0: (x * 2) then three times y * 1.5 + 1: 2 -> 4 -> 7 -> 11.5; 4 -> 7 -> 11.5 -> 18.25
  EXPECT_EQ(sig.call_flat({Tensor::from_vector(std::vector<float>{1, 2})})[0].to_vector<float>(),
            (std::vector<float>{11.5f, 18.25f}));
  // -3 < 0: (x - 1) = -4 -> -5 -> -6.5 -> -8.75
  EXPECT_EQ(sig.call_flat({Tensor::from_vector(std::vector<float>{-3})})[0].to_vector<float>(),
            (std::vector<float>{-8.75f}));
}

TEST(SavedModel, SeveralSignaturesShareVariables) {
  auto mlp = make_lab_mlp();
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{}, DType::kFloat32)};
  auto w1 = mlp.w1;
  auto scale = function(
      "scale", {"s"}, [w1](Tensor s) { return w1->read_value() * Value(s); }, opts);
  std::string dir = temp_dir("multi");
  saved_model::save({{"serving_default", mlp.fn->get_concrete_function()},
                     {"scale", scale->get_concrete_function()}},
                    dir);
  savedmodel::BundleReader r(savedmodel::variables_prefix(dir));
  EXPECT_EQ(r.keys(), (std::vector<std::string>{"b1", "b2", "w1", "w2"}));  // w1 once
  auto model = saved_model::load(dir);
  ASSERT_EQ(model->signatures().size(), 2u);
  Tensor got = model->signature("scale").call({{"s", Tensor::scalar<float>(2.0f)}})[0].second;
  auto w = mlp.w1->numpy().to_vector<float>();
  auto g = got.to_vector<float>();
  ASSERT_EQ(g.size(), w.size());
  for (size_t i = 0; i < w.size(); ++i) EXPECT_EQ(g[i], w[i] * 2.0f);
}
