// Internal to the FULLY_CONNECTED kernels: the reference hybrid kernel on caller-owned buffers, and
// the per-instruction-set entry points of the prepared kernels (kernels_fc_avx2.cc,
// kernels_fc_avx512.cc), which PreparedFc::run (kernels_fc_prepared.cc) dispatches to.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tfscope/lite_kernels.h"

namespace tfs::lite::kernels {

bool all_zero(const float* x, size_t n);

// fully_connected_hybrid with its buffers given: q [batch * depth], sf and zp [batch].
void hybrid_reference(const float* in, int batch, const HybridWeights& w, const float* bias,
                      Activation act, bool asymmetric, float* out, int8_t* q, float* sf,
                      int32_t* zp);

// One call of a prepared kernel. Weights are in panels of `lanes` units (PreparedFc::Layout);
// `bias` holds at least `units` values (never null).
struct FcCall {
  const float* in = nullptr;  // [batch, depth]
  int batch = 0, depth = 0, units = 0;
  const float* bias = nullptr;
  Activation act = Activation::kNone;
  float* out = nullptr;  // [batch, units]
  PreparedFc::Layout layout;
  // float weights
  const float* wf = nullptr;
  bool fused = false;
  // hybrid: packed int8 weights, per-lane scales and row sums (padded), the quantized rows
  // (depth_pad per row: uint8 q + 128 for AVX-512, int16 q for AVX2), their scales (weight scale
  // folded in when there is one) and the offset subtracted per row sum (128 + zp, resp. zp).
  const int8_t* wq = nullptr;
  const float* scales = nullptr;
  const int32_t* row_sums = nullptr;
  const void* q = nullptr;
  const float* sf = nullptr;
  const int32_t* row_offset = nullptr;
};

// Quantizes the rows of `in` [batch, depth] as asymmetric_quantize / symmetric_quantize do, into
// q (depth_pad per row, the padding zero) with sf and zp per row. Rows with a NaN or an infinity
// go through the reference functions.
void quantize_rows_avx512(const float* in, int batch, int depth, int depth_pad, bool asymmetric,
                          uint8_t* q, float* sf, int32_t* zp);
void quantize_rows_avx2(const float* in, int batch, int depth, int depth_pad, bool asymmetric,
                        int16_t* q, float* sf, int32_t* zp);

// Quantization parameters of n <= 8 rows from their minima and maxima, bit-equal to
// asymmetric_params / symmetric_params (the AVX-512 and AVX2 kernels' batched form of them).
void row_params_avx512(const float* mn, const float* mx, int n, bool asymmetric,
                       RowQuantization* out);
void row_params_avx2(const float* mn, const float* mx, int n, bool asymmetric,
                     RowQuantization* out);
void fc_float_avx512(const FcCall& c);
void fc_hybrid_avx512(const FcCall& c);
// The hybrid kernel's epilogue for 16 rows from b0 and the four panels from p0, given their
// integer dots: acc[j * 256 + r * 16 + lane] for panel j, row r (AMX tiles as stored).
void hybrid_rows_avx512(const FcCall& c, int b0, int p0, const int32_t* acc);
// Blocks of 16 rows on AMX tiles, the rest of the rows on fc_hybrid_avx512.
void fc_hybrid_amx(const FcCall& c);
// Asks the kernel for the AMX tile state (arch_prctl); true when granted.
bool amx_enable();
void fc_float_avx2(const FcCall& c);
void fc_hybrid_avx2(const FcCall& c);

}  // namespace tfs::lite::kernels
