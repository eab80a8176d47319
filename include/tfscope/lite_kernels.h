// TFLite kernels of tfscope's interpreter, exposed for tests and benchmarks.
//
// The reference kernels follow LiteRT's reference kernels operation for operation (same float
// operations in the same order): they are the definition the others are tested against. The
// prepared kernels (PreparedFc) pack the weights once and run SIMD code chosen at run time (AVX-512
// with VNNI, AVX2, or a scalar path); they are bit-equal to the reference kernels, except the
// float kernel in its fused mode, which rounds each product-sum once (a fused multiply-add) and so
// differs from the reference in the last bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace tfs::lite::kernels {

// TFLite's fused activations (tflite::ActivationFunctionType values).
enum class Activation : int { kNone = 0, kRelu = 1, kReluN1To1 = 2, kRelu6 = 3 };
float activate(float x, Activation a);

// ---- Reference kernels ----------------------------------------------------------------------

// out[b][u] = act(sum_d in[b][d] * w[u][d] + bias[u]); w is [units, depth] row-major; bias may
// be null. Each sum runs from 0 in d order, every product rounded before it is added.
void fully_connected_float(const float* in, int batch, int depth, const float* w, int units,
                           const float* bias, Activation act, float* out);

// The quantization parameters of one input row, from its minimum and maximum: `inv` is what the
// row is multiplied by before rounding; `zero` marks a row of zeros (q = 0, sf = 1, zp = 0).
struct RowQuantization {
  float sf = 1;    // scaling factor
  int32_t zp = 0;  // offset (asymmetric only)
  float inv = 0;
  bool zero = true;
};
// tensor_utils::AsymmetricQuantizeFloats / SymmetricQuantizeFloats: q = clamp(zp + round(x *
// inv), -128, 127) (round half away from zero, the offset added after rounding), resp.
// clamp(round(x * inv), -127, 127).
RowQuantization asymmetric_params(float min, float max);
RowQuantization symmetric_params(float min, float max);
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

// ---- Prepared (packed, SIMD) kernels --------------------------------------------------------

// The instruction sets the prepared kernels have code for; kAmx is AVX-512 plus AMX tiles
// (TDPBUSD) for the hybrid kernel's blocks of 16 rows.
enum class Isa { kScalar, kAvx2, kAvx512, kAmx };
// The best this CPU runs: AMX (tiles enabled for the process by the kernel), else AVX-512 (F, BW,
// DQ, VL, VNNI), else AVX2 with FMA, else scalar; the environment variable TFSCOPE_LITE_ISA
// (avx512, avx2, scalar) can lower it (read once).
Isa best_isa();
bool isa_supported(Isa isa);
const char* isa_name(Isa isa);

// Memory aligned to a cache line, for packed weights.
template <class T>
struct CacheAligned {
  using value_type = T;
  CacheAligned() = default;
  template <class U>
  CacheAligned(const CacheAligned<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, size_t) { ::operator delete (p, std::align_val_t{64}); }
  template <class U>
  bool operator==(const CacheAligned<U>&) const {
    return true;
  }
};
template <class T>
using AlignedVector = std::vector<T, CacheAligned<T>>;

// What a prepared kernel needs between calls: the quantized input rows and their parameters.
// reserve() sizes it for a batch; run() then allocates nothing.
struct FcScratch {
  AlignedVector<uint8_t> q;
  std::vector<float> sf;
  std::vector<int32_t> zp;
};

// FULLY_CONNECTED with weights packed once for one instruction set.
class PreparedFc {
 public:
  PreparedFc() = default;
  PreparedFc(PreparedFc&&) noexcept = default;  // move-only: ref_ points into raw_q_
  PreparedFc& operator=(PreparedFc&&) noexcept = default;
  PreparedFc(const PreparedFc&) = delete;
  PreparedFc& operator=(const PreparedFc&) = delete;

  // Float weights [units, depth]. Not fused: bit-equal to fully_connected_float. Fused: each
  // output still sums in d order, with one rounding per multiply-add.
  static PreparedFc float_weights(const float* w, int units, int depth, bool fused,
                                  Isa isa = best_isa());
  // Int8 weights [units, depth] with one scale or one per unit: bit-equal to
  // fully_connected_hybrid.
  static PreparedFc hybrid_weights(const int8_t* w, int units, int depth,
                                   const std::vector<float>& scales, Isa isa = best_isa());

  void reserve(int batch, FcScratch& scratch) const;
  // out [batch, units] = the kernel of `in` [batch, depth]; bias may be null. `asymmetric` is
  // the hybrid kernel's input quantization (ignored for float weights).
  void run(const float* in, int batch, const float* bias, Activation act, bool asymmetric,
           float* out, FcScratch& scratch) const;

  int units() const { return units_; }
  int depth() const { return depth_; }
  Isa isa() const { return isa_; }
  bool hybrid() const { return hybrid_; }
  bool fused() const { return fused_; }

  // The layout, for the kernels (kernels_fc_*.cc).
  struct Layout {
    int lanes = 1;      // units per panel (one SIMD vector of outputs)
    int k_group = 1;    // consecutive d values per lane in a panel (VNNI 4, AVX2 int8 2)
    int depth_pad = 0;  // depth rounded up to k_group
    int panels = 0;     // panels, rounded up to a multiple of group_panels
    int group_panels = 1;
  };
  const Layout& layout() const { return layout_; }

 private:
  Isa isa_ = Isa::kScalar;
  bool hybrid_ = false;
  bool fused_ = false;
  int units_ = 0, depth_ = 0;
  Layout layout_;
  AlignedVector<float> wf_;   // packed float weights
  AlignedVector<int8_t> wq_;  // packed int8 weights
  std::vector<float> raw_f_;  // scalar path: the weights as given
  std::vector<int8_t> raw_q_;
  HybridWeights ref_;              // scalar path: points into raw_q_
  std::vector<float> scales_;      // per panel lane, padded; all 1 for one weight scale
  float tensor_scale_ = 1;         // the one weight scale (1 when per unit)
  std::vector<int32_t> row_sums_;  // padded
  std::vector<float> zero_bias_;   // padded zeros, when the caller has no bias
};

}  // namespace tfs::lite::kernels
