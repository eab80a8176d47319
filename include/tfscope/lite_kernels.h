// TFLite kernels of tfscope's interpreter, exposed for tests and benchmarks. The reference
// kernels follow LiteRT's reference kernels operation for operation (same float operations in
// the same order), so the hybrid FULLY_CONNECTED matches LiteRT bit for bit; the fast kernels
// must give the same results as the reference (hybrid: bit-equal; float: same math, other
// summation order).
#pragma once

#include <cstdint>
#include <vector>

namespace tfs::lite::kernels {

// TFLite's fused activations (tflite::ActivationFunctionType values).
enum class Activation : int { kNone = 0, kRelu = 1, kReluN1To1 = 2, kRelu6 = 3 };
float activate(float x, Activation a);

// out[b][u] = act(sum_d in[b][d] * w[u][d] + bias[u]); w is [units, depth] row-major; bias may
// be null.
void fully_connected_float(const float* in, int batch, int depth, const float* w, int units,
                           const float* bias, Activation act, float* out);
// The same with Eigen's matrix products.
void fully_connected_float_fast(const float* in, int batch, int depth, const float* w, int units,
                                const float* bias, Activation act, float* out);

// tensor_utils::AsymmetricQuantizeFloats / SymmetricQuantizeFloats for one row.
void asymmetric_quantize(const float* x, int n, int8_t* q, float* scaling_factor, int32_t* offset);
void symmetric_quantize(const float* x, int n, int8_t* q, float* scaling_factor);

// Int8 weights with float activations (EvalHybridDense): each input row quantized (asymmetric
// when `asymmetric`), an integer dot per (row, unit), rescaled by the weight scale (per unit when
// scales.size() == units, else one) times the row's input scale, added to the bias.
struct HybridWeights {
  const int8_t* w = nullptr;  // [units, depth]
  int units = 0;
  int depth = 0;
  std::vector<float> scales;
  std::vector<int32_t> row_sums;  // sum_d w[u][d], computed by prepare()
  void prepare();
};
void fully_connected_hybrid(const float* in, int batch, const HybridWeights& w, const float* bias,
                            Activation act, bool asymmetric, float* out);
// The same arithmetic with SIMD integer dot products; bit-equal to fully_connected_hybrid.
// `scratch` holds batch * depth quantized inputs between calls.
void fully_connected_hybrid_fast(const float* in, int batch, const HybridWeights& w,
                                 const float* bias, Activation act, bool asymmetric, float* out,
                                 std::vector<int8_t>& scratch);

}  // namespace tfs::lite::kernels
