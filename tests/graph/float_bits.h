// Helpers of the executor's fused-step tests (executor_dense_step_test.cc,
// executor_sgd_update_test.cc): a float32 tensor's bits, to compare outputs exactly, and a
// seeded tensor of normal samples.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs::testing {

inline std::vector<uint32_t> bits(const Tensor& t) {
  std::vector<uint32_t> b(static_cast<size_t>(t.num_elements()));
  std::memcpy(b.data(), t.data<float>(), b.size() * sizeof(float));
  return b;
}

inline Tensor randn(Shape shape, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(shape.num_elements()));
  for (float& x : v) x = d(gen);
  return Tensor::from_vector<float>(v, shape);
}

}  // namespace tfs::testing
