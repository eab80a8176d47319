#include "tfscope/saved_model_io.h"

#include "tfscope/saved_model_fingerprint.h"

#include "demo_saved_model.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tfs::savedmodel {
namespace {

const std::string kTiny = std::string(TFSCOPE_FORMATS_FIXTURES) + "/tiny_savedmodel";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

TEST(SavedModelIo, ReserializesTheTfWrittenFileByteForByte) {
  const std::string bytes = slurp(kTiny + "/saved_model.pb");
  const tensorflow::SavedModel model = parse_saved_model(bytes, "saved_model.pb");
  EXPECT_TRUE(model.meta_graphs(0).GetReflection()->GetUnknownFields(model.meta_graphs(0)).empty());
  EXPECT_EQ(serialize_as_tf(model), bytes);
}

TEST(SavedModelIo, ReadsTheTf2Structure) {
  const tensorflow::SavedModel model = read_saved_model(kTiny);
  ASSERT_EQ(model.meta_graphs_size(), 1);
  const auto& mg = model.meta_graphs(0);
  EXPECT_EQ(mg.meta_info_def().tags(0), "serve");
  EXPECT_EQ(mg.meta_info_def().tensorflow_version(), "2.21.0");
  EXPECT_TRUE(mg.has_object_graph_def());
  ASSERT_TRUE(mg.signature_def().count("serving_default"));
  const auto& sig = mg.signature_def().at("serving_default");
  EXPECT_EQ(sig.method_name(), "tensorflow/serving/predict");
  EXPECT_EQ(sig.inputs().at("x").name(), "serving_default_x:0");
  EXPECT_EQ(sig.inputs().at("x").dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(sig.inputs().at("x").tensor_shape().dim(0).size(), -1);
  EXPECT_EQ(sig.outputs().at("y").name(), "StatefulPartitionedCall:0");
  EXPECT_GT(mg.graph_def().library().function_size(), 0);
}

TEST(SavedModelIo, DescribesSignatures) {
  const std::string text = describe_saved_model(read_saved_model(kTiny));
  EXPECT_NE(text.find("signature 'serving_default' (tensorflow/serving/predict)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("x: float(None, 2) <- serving_default_x:0"), std::string::npos) << text;
}

TEST(SavedModelIo, ReadsTheFingerprint) {
  const auto fp = read_fingerprint(kTiny);
  ASSERT_TRUE(fp.has_value());
  EXPECT_NE(fp->saved_model_checksum(), 0u);
  EXPECT_EQ(fp->version().producer(), 4);  // TF 2.21 writes fingerprint version 4
}

// The fixtures' fingerprint.pb files were written by TF 2.21 when it saved them: tfscope computes
// the same hashes from the same files.
TEST(SavedModelFingerprint, HashesTfWrittenModelsAsTfDid) {
  for (const std::string& dir : {kTiny, std::string(TFSCOPE_SAVED_MODEL_FIXTURES) + "/tf_mlp"}) {
    SCOPED_TRACE(dir);
    const auto tf = read_fingerprint(dir);
    ASSERT_TRUE(tf.has_value());
    const tensorflow::FingerprintDef ours = compute_fingerprint(dir);
    EXPECT_EQ(ours.graph_def_program_hash(), tf->graph_def_program_hash());
    EXPECT_EQ(ours.signature_def_hash(), tf->signature_def_hash());
    EXPECT_EQ(ours.saved_object_graph_hash(), tf->saved_object_graph_hash());
    EXPECT_EQ(ours.checkpoint_hash(), tf->checkpoint_hash());
    EXPECT_EQ(ours.saved_model_checksum(), tf->saved_model_checksum());
    EXPECT_EQ(ours.version().producer(), tf->version().producer());
  }
}

TEST(SavedModelFingerprint, CatIsTfsFingerprintCat64) {
  // From an independent Python transcription of TF's definition (tsl/platform/fingerprint.h),
  // the one that reproduced TF's signature_def_hash and saved_object_graph_hash.
  EXPECT_EQ(fingerprint_cat64(0, 0), 0x5825f5f3bd962979ULL);
  EXPECT_EQ(random_fingerprint_uuid().size() >= 20, true);
}

TEST(SavedModelIo, WriteThenReadRoundTrips) {
  const auto dir = std::filesystem::temp_directory_path() / "tfscope_sm_roundtrip";
  std::filesystem::remove_all(dir);
  const tensorflow::SavedModel model = read_saved_model(kTiny);
  write_saved_model(dir.string(), model);
  EXPECT_EQ(slurp((dir / "saved_model.pb").string()), slurp(kTiny + "/saved_model.pb"));
  std::filesystem::remove_all(dir);
}

TEST(SavedModelIo, IntegerKeyedMapsComeOutDescendingAsInTf) {
  tensorflow::FunctionDef f;
  for (uint32_t k : {0u, 5u, 1u, 300u, 2u}) (*f.mutable_resource_arg_unique_id())[k] = k;
  for (const char* k : {"b", "a", "c"}) (*f.mutable_attr())[k].set_i(1);
  // Bytes from TF 2.21's Python protobuf, SerializeToString(deterministic=True).
  const std::string hex =
      "2a070a0161120218012a070a0162120218012a070a016312021801420608ac0210ac02420408051005420408"
      "021002420408011001420408001000";
  std::string expected;
  for (size_t i = 0; i < hex.size(); i += 2) {
    expected.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  EXPECT_EQ(serialize_as_tf(f), expected);
}

TEST(SavedModelIo, StringKeyedMapsPutTheLongerOfTwoPrefixedKeysFirstAsInTf) {
  tensorflow::FunctionDef f;
  for (const char* k : {"a", "ab", "b", "abc", "", "ba"}) (*f.mutable_control_ret())[k] = "x";
  std::vector<std::string> order;
  const std::string bytes = serialize_as_tf(f);
  for (size_t i = 0; i < bytes.size(); i += 2 + bytes[i + 1]) {
    const bool has_key = bytes[i + 2] == 0x0a;
    order.push_back(has_key ? bytes.substr(i + 4, bytes[i + 3]) : "");
  }
  // The order TF 2.21's Python protobuf writes.
  EXPECT_EQ(order, (std::vector<std::string>{"abc", "ab", "a", "ba", "b", ""}));
}

// Found by fuzz_saved_model: unknown fields (here a group, wire type 3) survive parsing and must
// survive serialize_as_tf.
TEST(SavedModelIo, KeepsUnknownGroupFields) {
  // meta_graphs { <field 99: group { field 1: varint 5 }> }
  const std::string bytes("\x08\x01\x12\x06\x9b\x06\x08\x05\x9c\x06", 10);
  const tensorflow::SavedModel model = parse_saved_model(bytes, "saved_model.pb");
  EXPECT_EQ(serialize_as_tf(model), bytes);
}

TEST(SavedModelIo, BuildsASavedModelFromScratchThatReadsBack) {
  const auto dir = std::filesystem::temp_directory_path() / "tfscope_sm_demo";
  std::filesystem::remove_all(dir);
  testing::write_demo_saved_model(dir.string(), /*variables=*/true);
  const tensorflow::SavedModel model = read_saved_model(dir.string());
  EXPECT_FALSE(model.meta_graphs(0).has_object_graph_def());  // TF's v1 loading path
  EXPECT_EQ(model.meta_graphs(0).saver_def().restore_op_name(), "save/restore_all");
  const std::vector<BundleTensor> vars = read_bundle(variables_prefix(dir.string()));
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_EQ(vars[0].key, "W");
  EXPECT_EQ(vars[0].shape, (std::vector<int64_t>{4, 3}));
  std::filesystem::remove_all(dir);
}

TEST(SavedModelIo, RejectsADirectoryWithoutSavedModelPb) {
  const std::string dir = std::string(TFSCOPE_FORMATS_FIXTURES) + "/bundle";
  EXPECT_EQ(error_of([&] { read_saved_model(dir); }),
            "[savedmodel] " + dir + ": not a SavedModel directory (no saved_model.pb)");
}

TEST(SavedModelIo, RejectsTruncatedFiles) {
  const std::string bytes = slurp(kTiny + "/saved_model.pb");
  int rejected = 0;
  for (size_t n : {size_t{1}, size_t{7}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
    const std::string msg = error_of(
        [&] { parse_saved_model(std::string_view(bytes).substr(0, n), "saved_model.pb"); });
    if (!msg.empty()) {
      EXPECT_EQ(msg.rfind("[savedmodel] saved_model.pb: ", 0), 0u) << msg;
      ++rejected;
    }
  }
  EXPECT_GE(rejected, 4);
}

TEST(SavedModelIo, RejectsGarbage) {
  EXPECT_EQ(error_of([] { parse_saved_model("\xff\xff\xff\xff", "x.pb"); }),
            "[savedmodel] x.pb: not a valid SavedModel protobuf (4 bytes)");
}

}  // namespace
}  // namespace tfs::savedmodel
