// tf.train.Example bytes and ParseExampleV2 against TF 2.21 (bytes from
// tf.train.Example.SerializeToString, results and texts from tf.io.parse_single_example and
// tf.io.parse_example).
#include "tfscope/example.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tfscope/errors.h"

namespace tfs::data {
namespace {

std::string unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  }
  return out;
}

FeatureValue ints(std::vector<int64_t> v) {
  FeatureValue f;
  f.kind = FeatureValue::Kind::kInt64;
  f.ints = std::move(v);
  return f;
}
FeatureValue floats(std::vector<float> v) {
  FeatureValue f;
  f.kind = FeatureValue::Kind::kFloat;
  f.floats = std::move(v);
  return f;
}
FeatureValue bytes(std::vector<std::string> v) {
  FeatureValue f;
  f.kind = FeatureValue::Kind::kBytes;
  f.bytes = std::move(v);
  return f;
}

// TF's bytes of Example{a: int64 [1, 2, 3], b: float [1.5], c: bytes ["x", "yz"]}, in one of
// the orders TF's Python writes its Features map (its hash table's order, which differs from run
// to run); tfscope writes the keys in sorted order, one of those.
const char* kAbc =
    "0a2d0a0c0a016112071a050a030102030a0d0a0162120812060a040000c03f0a0e0a016312090a070a01780a02797"
    "a";

TEST(Example, BytesAreTFsInKeyOrder) {
  EXPECT_EQ(
      serialize_example({{"c", bytes({"x", "yz"})}, {"a", ints({1, 2, 3})}, {"b", floats({1.5f})}}),
      unhex(kAbc));
  Features back = parse_example_proto(unhex(kAbc));
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].first, "a");
  EXPECT_EQ(back[0].second.ints, (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(back[2].second.bytes, (std::vector<std::string>{"x", "yz"}));
}

const std::vector<DenseFeature> kDense = {{"a", DType::kInt64, Shape{3}, Tensor()},
                                          {"b", DType::kFloat32, Shape{}, Tensor()}};
const std::vector<SparseFeature> kSparse = {{"c", DType::kString}};

TEST(Example, ParseSingleExample) {
  ParsedExamples r = parse_examples(Tensor::string_scalar(unhex(kAbc)), kSparse, kDense);
  EXPECT_EQ(r.dense[0].to_vector<int64_t>(), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(r.dense[1].eager_shape(), Shape{});
  EXPECT_EQ(r.dense[1].to_vector<float>(), (std::vector<float>{1.5f}));
  EXPECT_EQ(r.sparse[0].indices.eager_shape(), (Shape{2, 1}));
  EXPECT_EQ(r.sparse[0].indices.to_vector<int64_t>(), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(r.sparse[0].values.string_values(), (std::vector<std::string>{"x", "yz"}));
  EXPECT_EQ(r.sparse[0].dense_shape.to_vector<int64_t>(), (std::vector<int64_t>{2}));
}

TEST(Example, ParseBatch) {
  const std::string second =
      serialize_example({{"a", ints({4, 5, 6})}, {"b", floats({2})}, {"c", bytes({"q"})}});
  ParsedExamples r =
      parse_examples(Tensor::strings({unhex(kAbc), second}, Shape{2}), kSparse, kDense);
  EXPECT_EQ(r.dense[0].eager_shape(), (Shape{2, 3}));
  EXPECT_EQ(r.dense[0].to_vector<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(r.sparse[0].indices.to_vector<int64_t>(), (std::vector<int64_t>{0, 0, 0, 1, 1, 0}));
  EXPECT_EQ(r.sparse[0].dense_shape.to_vector<int64_t>(), (std::vector<int64_t>{2, 2}));
}

std::string error_of(const Tensor& serialized, const std::vector<SparseFeature>& s,
                     const std::vector<DenseFeature>& d) {
  try {
    parse_examples(serialized, s, d);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInvalidArgument);
    return e.what();
  }
  return "no error";
}

std::string wrapped(int tdense, int sparse, const std::string& msg) {
  return "{{function_node __wrapped__ParseExampleV2_Tdense_" + std::to_string(tdense) +
         "_num_sparse_" + std::to_string(sparse) +
         "_ragged_split_types_0_ragged_value_types_0_sparse_types_" + std::to_string(sparse) +
         "_device_/job:localhost/replica:0/task:0/device:CPU:0}} " + msg + " [Op:ParseExampleV2]";
}

TEST(Example, ErrorsAreTFs) {
  const std::vector<DenseFeature> a3 = {{"a", DType::kInt64, Shape{3}, Tensor()}};
  const std::string only_b = serialize_example({{"b", floats({1})}});
  const std::string two = serialize_example({{"a", ints({1, 2})}});
  const std::string as_float = serialize_example({{"a", floats({1, 2, 3})}});
  const std::string good = serialize_example({{"a", ints({1, 2, 3})}});
  EXPECT_EQ(error_of(Tensor::string_scalar(only_b), {}, a3),
            wrapped(1, 0, "Feature: a (data type: int64) is required but could not be found."));
  EXPECT_EQ(
      error_of(Tensor::string_scalar(two), {}, a3),
      wrapped(1, 0,
              "Key: a.  Can't parse serialized Example: Some int64_list slice was not parsed."));
  EXPECT_EQ(
      error_of(Tensor::string_scalar(as_float), {}, a3),
      wrapped(1, 0, "Key: a.  Data types don't match. Data type: float but expected type: int64"));
  EXPECT_EQ(error_of(Tensor::string_scalar("garbage"), {}, a3),
            wrapped(1, 0, "Could not parse example input, value: 'garbage'"));
  auto batch = [&](const std::string& s) { return Tensor::strings({good, s}, Shape{2}); };
  EXPECT_EQ(
      error_of(batch(only_b), {}, a3),
      wrapped(
          1, 0,
          "Name: <unknown>, Feature: a (data type: int64) is required but could not be found."));
  EXPECT_EQ(error_of(batch(two), {}, a3),
            wrapped(1, 0,
                    "Name: <unknown>, Key: a, Index: 1.  Number of int64 values != expected.  "
                    "Values size: 2 but output shape: [3]"));
  EXPECT_EQ(error_of(batch(as_float), {}, a3),
            wrapped(1, 0,
                    "Name: <unknown>, Key: a, Index: 1.  Data types don't match. Data type: "
                    "float but expected type: int64"));
  EXPECT_EQ(error_of(batch(serialize_example({{"a", floats({1})}})), {{"a", DType::kInt64}}, {}),
            wrapped(0, 1,
                    "Name: <unknown>, Key: a, Index: 1.  Data types don't match. Expected "
                    "type: int64, Actual type: float"));
}

TEST(Example, DefaultsAndMissingVarLen) {
  const std::string only_b = serialize_example({{"b", floats({1})}});
  ParsedExamples r =
      parse_examples(Tensor::string_scalar(only_b), {{"a", DType::kInt64}},
                     {{"d", DType::kInt64, Shape{2}, Tensor::from_vector<int64_t>({7, 8})}});
  EXPECT_EQ(r.dense[0].to_vector<int64_t>(), (std::vector<int64_t>{7, 8}));
  EXPECT_EQ(r.sparse[0].indices.eager_shape(), (Shape{0, 1}));
  EXPECT_EQ(r.sparse[0].dense_shape.to_vector<int64_t>(), (std::vector<int64_t>{0}));
}

}  // namespace
}  // namespace tfs::data
