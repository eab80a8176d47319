// The MLP of the benchmarks (784 -> 256 relu -> 128 relu -> 10), as a ConcreteFunction and as
// the bare kernels it runs: bm_function times the two (BM_MlpForward, BM_MlpKernelsOnly) and
// instr_function counts their instructions, on the same weights and input.
#pragma once

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "matmul_f32.h"  // src/ops: the kernel the MatMul op dispatches to
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfs::bench {

inline Tensor random_matrix(int64_t rows, int64_t cols, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-0.5f, 0.5f);
  std::vector<float> v(static_cast<size_t>(rows * cols));
  for (float& x : v) x = dist(gen);
  return Tensor::from_vector<float>(v, Shape({rows, cols}));
}

struct Mlp {
  Tensor w1 = random_matrix(784, 256, 1), w2 = random_matrix(256, 128, 2),
         w3 = random_matrix(128, 10, 3);
  Tensor b1 = random_matrix(1, 256, 4).reshaped(Shape({256}));
  Tensor b2 = random_matrix(1, 128, 5).reshaped(Shape({128}));
  Tensor b3 = random_matrix(1, 10, 6).reshaped(Shape({10}));
};

// The forward as a tf.function over variables, traced for a batch: cf->run_flat(flat) is a call.
struct MlpFunction {
  explicit MlpFunction(int64_t batch) {
    f = function("mlp", {"x"}, [this](Tensor x) {
      Tensor h = relu(bias_add(matmul(x, w1.read_value()), b1.read_value()));
      h = relu(bias_add(matmul(h, w2.read_value()), b2.read_value()));
      return bias_add(matmul(h, w3.read_value()), b3.read_value());
    });
    flat = {random_matrix(batch, 784, 7)};
    cf = f->get_concrete_function({flat[0]});
  }
  Mlp m;
  Variable w1{Value(m.w1), "w1"}, w2{Value(m.w2), "w2"}, w3{Value(m.w3), "w3"};
  Variable b1{Value(m.b1), "b1"}, b2{Value(m.b2), "b2"}, b3{Value(m.b3), "b3"};
  std::shared_ptr<Function> f;
  std::vector<Tensor> flat;
  std::shared_ptr<ConcreteFunction> cf;
};

// The same kernels called directly, into buffers allocated once: MatMul's float32 kernel as the
// MatMul op dispatches it (tf_matmul_f32: at batch 1 with oneDNN's AVX-512 ISA that is oneDNN's
// gemv order, not the GEMM's), then BiasAdd and Relu as the graph runs them, one pass over the
// output each. run() returns the logits.
struct MlpKernels {
  explicit MlpKernels(int64_t batch)
      : batch(batch),
        x(random_matrix(batch, 784, 7)),
        h1(static_cast<size_t>(batch * 256)),
        h2(static_cast<size_t>(batch * 128)),
        y(static_cast<size_t>(batch * 10)) {}
  const float* run() {
    dense(x.data<float>(), 784, m.w1, m.b1, 256, h1.data(), true);
    dense(h1.data(), 256, m.w2, m.b2, 128, h2.data(), true);
    dense(h2.data(), 128, m.w3, m.b3, 10, y.data(), false);
    return y.data();
  }
  void dense(const float* in, int64_t k, const Tensor& w, const Tensor& b, int64_t n, float* out,
             bool relu) const {
    detail::tf_matmul_f32(in, false, w.data<float>(), false, batch, k, n, out);
    const float* bias = b.data<float>();
    for (int64_t i = 0; i < batch; ++i) {
      for (int64_t j = 0; j < n; ++j) out[i * n + j] = out[i * n + j] + bias[j];
    }
    if (relu) {
      for (int64_t i = 0; i < batch * n; ++i) out[i] = std::max(out[i], 0.0f);
    }
  }
  Mlp m;
  int64_t batch;
  Tensor x;
  std::vector<float> h1, h2, y;
};

}  // namespace tfs::bench
