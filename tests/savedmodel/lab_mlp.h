// The lab's MLP for SavedModel tests and conformance: Dense 4 -> 8 (relu) -> 3 with seeded
// tf.Variables, as a tfs::Function with input_signature [TensorSpec([None, 4], float32)].
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/variable.h"

namespace tfs::savedmodel::testing {

// Deterministic values in [-1, 1) from a 32-bit LCG (the same in every build).
inline std::vector<float> seeded_floats(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = static_cast<float>(s >> 8) / static_cast<float>(1u << 23) - 1.0f;
  }
  return v;
}

struct LabMlp {
  std::shared_ptr<Variable> w1, b1, w2, b2;
  std::shared_ptr<Function> fn;
};

inline LabMlp make_lab_mlp(uint32_t seed = 42) {
  LabMlp m;
  m.w1 =
      std::make_shared<Variable>(Tensor::from_vector(seeded_floats(32, seed), Shape{4, 8}), "w1");
  m.b1 =
      std::make_shared<Variable>(Tensor::from_vector(seeded_floats(8, seed + 1), Shape{8}), "b1");
  m.w2 = std::make_shared<Variable>(Tensor::from_vector(seeded_floats(24, seed + 2), Shape{8, 3}),
                                    "w2");
  m.b2 =
      std::make_shared<Variable>(Tensor::from_vector(seeded_floats(3, seed + 3), Shape{3}), "b2");
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 4}, DType::kFloat32)};
  auto w1 = m.w1, b1 = m.b1, w2 = m.w2, b2 = m.b2;
  m.fn = function(
      "mlp", {"x"},
      [w1, b1, w2, b2](Tensor x) {
        Tensor h = relu(matmul(x, w1->read_value()) + Value(b1->read_value()));
        return matmul(h, w2->read_value()) + Value(b2->read_value());
      },
      opts);
  return m;
}

}  // namespace tfs::savedmodel::testing
