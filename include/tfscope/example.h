// tf.train.Example protos and their parsing into tensors (tf.io.parse_example,
// parse_single_example), as TF's ParseExampleV2 kernel parses them, with its texts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs::data {

// One tf.train.Feature: which list it holds (or none) and the values.
struct FeatureValue {
  enum class Kind { kNone, kBytes, kFloat, kInt64 };
  Kind kind = Kind::kNone;
  std::vector<std::string> bytes;
  std::vector<float> floats;
  std::vector<int64_t> ints;
};
using Features = std::vector<std::pair<std::string, FeatureValue>>;

// The Example's bytes, its features in key order as TF's Python writes them; and back
// (InvalidArgument "Could not parse example input, value: '<bytes>'" for bytes that are no
// Example), the features in key order.
std::string serialize_example(const Features& features);
Features parse_example_proto(const std::string& bytes);

// A FixedLenFeature (required unless default_value has elements) and a VarLenFeature.
struct DenseFeature {
  std::string key;
  DType dtype;
  Shape shape;
  Tensor default_value;  // an empty tensor when the feature is required
};
struct SparseFeature {
  std::string key;
  DType dtype;
};
struct SparseValue {
  Tensor indices, values, dense_shape;
};
struct ParsedExamples {
  std::vector<SparseValue> sparse;
  std::vector<Tensor> dense;
};

// `serialized`: a string scalar (one example: dense values of the features' shapes, sparse
// indices [n, 1]) or vector (a batch: a leading batch dimension, sparse indices [n, 2]). Runs
// the ParseExampleV2 op, so errors read as TF's eager ParseExampleV2 errors.
ParsedExamples parse_examples(const Tensor& serialized, const std::vector<SparseFeature>& sparse,
                              const std::vector<DenseFeature>& dense);

}  // namespace tfs::data
