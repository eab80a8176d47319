// MLPs for the lite tests: x[None, in] -> relu(x W1 + b1) -> (. W2 + b2), as a tfs::Function with
// an input signature, from given weights (e.g. read from a TF-converted fixture).
#pragma once

#include <memory>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/variable.h"

namespace tfs::lite::testing {

struct Mlp {
  std::shared_ptr<Variable> w1, b1, w2, b2;
  std::shared_ptr<Function> fn;
};

// w1 is [in, hidden], w2 [hidden, out], row-major.
inline Mlp make_mlp(int in, int hidden, int out, const std::vector<float>& w1,
                    const std::vector<float>& b1, const std::vector<float>& w2,
                    const std::vector<float>& b2) {
  Mlp m;
  m.w1 = std::make_shared<Variable>(Tensor::from_vector(w1, Shape{in, hidden}), "w1");
  m.b1 = std::make_shared<Variable>(Tensor::from_vector(b1, Shape{hidden}), "b1");
  m.w2 = std::make_shared<Variable>(Tensor::from_vector(w2, Shape{hidden, out}), "w2");
  m.b2 = std::make_shared<Variable>(Tensor::from_vector(b2, Shape{out}), "b2");
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, in}, DType::kFloat32, "x")};
  auto W1 = m.w1, B1 = m.b1, W2 = m.w2, B2 = m.b2;
  m.fn = function(
      "mlp", {"x"},
      [W1, B1, W2, B2](Tensor x) {
        Tensor h = relu(matmul(x, W1->read_value()) + Value(B1->read_value()));
        return matmul(h, W2->read_value()) + Value(B2->read_value());
      },
      opts);
  return m;
}

// Deterministic values in [-scale, scale) from a 32-bit LCG.
inline std::vector<float> lcg_floats(size_t n, uint32_t seed, float scale = 1.0f) {
  std::vector<float> v(n);
  uint32_t s = seed;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = (static_cast<float>(s >> 8) / static_cast<float>(1u << 23) - 1.0f) * scale;
  }
  return v;
}

}  // namespace tfs::lite::testing
