#include "tfscope/tensor_bundle.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tfs::savedmodel {
namespace {

const std::string kFixtures = TFSCOPE_FORMATS_FIXTURES;

template <typename T>
std::string raw(std::initializer_list<T> values) {
  std::string s(values.size() * sizeof(T), '\0');
  std::memcpy(s.data(), std::data(values), s.size());
  return s;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The tensors conformance/formats/make_fixtures.py saves with tf.raw_ops.SaveV2, in that order.
std::vector<BundleTensor> fixture_tensors() {
  return {
      {"a/float", 1, {2, 3}, raw<float>({1.0f, -2.5f, 3.25f, 0.0f, 1e-3f, -7.0f}), {}},
      {"b/int32", 3, {3}, raw<int32_t>({1, -2, 2147483647}), {}},
      {"c/int64_scalar", 9, {}, raw<int64_t>({-9000000000}), {}},
      {"d/double", 2, {2}, raw<double>({0.5, -1.0 / 3.0}), {}},
      {"e/bool", 10, {3}, raw<uint8_t>({1, 0, 1}), {}},
      {"f/uint8", 4, {5}, raw<uint8_t>({0, 1, 2, 3, 4}), {}},
      {"g/half", 19, {2}, raw<uint16_t>({0x3c00, 0xb800}), {}},
      {"h/empty", 1, {0, 4}, "", {}},
      {"i/string", 7, {3}, "", {"hello", "", "tensor bundle"}},
      {"j/int8", 6, {3}, raw<int8_t>({-128, 0, 127}), {}},
  };
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("tfscope_bundle_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

TEST(TensorBundle, ReadsEveryDtypeOfTheTfCheckpointExactly) {
  const std::vector<BundleTensor> got = read_bundle(kFixtures + "/bundle/ckpt");
  EXPECT_EQ(got, fixture_tensors());
}

TEST(TensorBundle, WritesTheSameBytesAsTensorFlow) {
  const BundleFiles files = encode_bundle(fixture_tensors());
  EXPECT_EQ(files.index, slurp(kFixtures + "/bundle/ckpt.index"));
  EXPECT_EQ(files.data, slurp(kFixtures + "/bundle/ckpt.data-00000-of-00001"));
}

TEST(TensorBundle, ReadsTheVariablesOfATf2SavedModel) {
  BundleReader r(kFixtures + "/tiny_savedmodel/variables/variables");
  EXPECT_EQ(r.keys(), (std::vector<std::string>{"_CHECKPOINTABLE_OBJECT_GRAPH",
                                                "b/.ATTRIBUTES/VARIABLE_VALUE",
                                                "w/.ATTRIBUTES/VARIABLE_VALUE"}));
  const BundleTensor w = r.get("w/.ATTRIBUTES/VARIABLE_VALUE");
  EXPECT_EQ(w.dtype, 1);
  EXPECT_EQ(w.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(w.data, raw<float>({1.0f, 2.0f, 3.0f, 4.0f}));
  EXPECT_EQ(r.get("b/.ATTRIBUTES/VARIABLE_VALUE").data, raw<float>({0.5f, -0.5f}));
  const BundleTensor graph = r.get("_CHECKPOINTABLE_OBJECT_GRAPH");
  EXPECT_EQ(graph.dtype, 7);
  EXPECT_TRUE(graph.shape.empty());
  EXPECT_EQ(graph.strings.size(), 1u);
}

TEST(TensorBundle, RewritingTheTf2VariablesReproducesTheirBytes) {
  const std::string prefix = kFixtures + "/tiny_savedmodel/variables/variables";
  // TF writes variables in object-graph order (w, b) and the object graph last.
  std::vector<BundleTensor> all = read_bundle(prefix);
  std::vector<BundleTensor> in_tf_order = {all[2], all[1], all[0]};
  const BundleFiles files = encode_bundle(in_tf_order);
  EXPECT_EQ(files.index, slurp(prefix + ".index"));
  EXPECT_EQ(files.data, slurp(prefix + ".data-00000-of-00001"));
}

TEST(TensorBundle, WriteThenReadRoundTrips) {
  TempDir dir;
  write_bundle(dir / "ckpt", fixture_tensors());
  EXPECT_EQ(read_bundle(dir / "ckpt"), fixture_tensors());
  EXPECT_TRUE(std::filesystem::exists(dir / "ckpt.data-00000-of-00001"));
}

TEST(TensorBundle, DataFileNameFollowsTf) {
  EXPECT_EQ(bundle_data_filename("v/variables", 0, 1), "v/variables.data-00000-of-00001");
  EXPECT_EQ(bundle_data_filename("p", 12, 345), "p.data-00012-of-00345");
}

TEST(TensorBundle, WriterRejectsSizeMismatchAndDuplicates) {
  EXPECT_NE(error_of([] {
              encode_bundle({{"x", 1, {3}, raw<float>({1.0f}), {}}});
            }).find("[savedmodel] bundle tensor 'x': has 4 bytes, shape [3] needs 12"),
            std::string::npos);
  EXPECT_NE(
      error_of([] {
        encode_bundle({{"x", 1, {}, raw<float>({1.0f}), {}}, {"x", 1, {}, raw<float>({1.0f}), {}}});
      }).find("duplicate key"),
      std::string::npos);
}

TEST(TensorBundle, MissingIndexNamesTheFile) {
  TempDir dir;
  const std::string msg = error_of([&] { read_bundle(dir / "nothing"); });
  EXPECT_EQ(msg.rfind("[savedmodel] " + (dir / "nothing.index") + ": cannot open", 0), 0u) << msg;
}

TEST(TensorBundle, BadMagicNamesTheIndexFile) {
  TempDir dir;
  BundleFiles f = encode_bundle(fixture_tensors());
  f.index.back() = 'X';
  const std::string msg = error_of([&] { BundleReader(dir / "variables", f.index, {f.data}); });
  EXPECT_EQ(msg, "[savedmodel] " + (dir / "variables.index") +
                     ": bad table magic number (not an SSTable, or truncated)");
}

TEST(TensorBundle, TruncatedIndexFails) {
  BundleFiles f = encode_bundle(fixture_tensors());
  for (size_t n = 0; n < f.index.size(); ++n) {
    const std::string msg =
        error_of([&] { BundleReader("variables/variables", f.index.substr(0, n), {f.data}); });
    EXPECT_EQ(msg.rfind("[savedmodel] variables/variables.index: ", 0), 0u) << n << " " << msg;
  }
}

TEST(TensorBundle, CorruptTensorDataFailsItsChecksum) {
  BundleFiles f = encode_bundle(fixture_tensors());
  f.data[2] ^= 1;  // inside a/float
  BundleReader r("variables/variables", f.index, {f.data});
  EXPECT_EQ(error_of([&] { r.get("a/float"); }),
            "[savedmodel] variables/variables.data-00000-of-00001: checksum mismatch for tensor "
            "'a/float'");
  EXPECT_NO_THROW(r.get("b/int32"));
}

TEST(TensorBundle, TruncatedDataFileIsReported) {
  BundleFiles f = encode_bundle(fixture_tensors());
  BundleReader r("variables/variables", f.index, {f.data.substr(0, 10)});
  EXPECT_NE(error_of([&] { r.get("j/int8"); }).find("runs past the end of the file"),
            std::string::npos);
}

TEST(TensorBundle, CorruptStringLengthsAreReported) {
  BundleFiles f = encode_bundle({{"s", 7, {2}, "", {"ab", "c"}}});
  f.data[0] = 9;  // first length
  BundleReader r("v", f.index, {f.data});
  EXPECT_NE(error_of([&] { r.get("s"); }).find("string length checksum mismatch"),
            std::string::npos);
}

TEST(TensorBundle, UnknownKeyIsReported) {
  BundleFiles f = encode_bundle(fixture_tensors());
  BundleReader r("v", f.index, {f.data});
  EXPECT_EQ(error_of([&] { r.get("zzz"); }), "[savedmodel] v.index: no tensor named 'zzz'");
}

TEST(TensorBundle, EveryByteFlipInTheIndexFailsCleanlyOrReadsBack) {
  const BundleFiles f = encode_bundle(fixture_tensors());
  for (size_t i = 0; i < f.index.size(); ++i) {
    std::string bad = f.index;
    bad[i] ^= 0x10;
    try {
      BundleReader r("v", bad, {f.data});
      r.get_all();
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("[savedmodel] v.", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace tfs::savedmodel
