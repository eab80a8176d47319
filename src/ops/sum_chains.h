// The float32 summation chains TF 2.21's CPU matrix kernels are made of, for a block of outputs
// at once. Internal to src/ops. Every output of the block gets the same chain; SIMD lanes hold
// different outputs, so the vector and scalar forms give the same bits.
#pragma once

#include <cstdint>

namespace tfs::detail {

enum class Chain : uint8_t {
  kFma,          // acc = fma(x, y, acc) over k in order, from 0
  kFmaSplit,     // two such chains, even and odd k of the even part, added; then the last k if odd
  kMulAddSplit,  // the same with a rounded product then an add at each step
  kMulAdd,       // acc = acc + x * y (rounded product) over k in order, from 0
};

// out[r][c] = sum over kk in [0, depth) of x[r][kk] * y[kk][c] in `chain` order, for r < rows,
// c < cols (x: row stride ldx; y: row stride ldy; out: row stride ldo). add: out = out + sum.
void chain_block(Chain chain, const float* x, int64_t ldx, const float* y, int64_t ldy,
                 int64_t depth, float* out, int64_t ldo, int64_t rows, int64_t cols, bool add);

// The scalar form of chain_block, callable directly so that tests cover it on any CPU.
void chain_block_scalar(Chain chain, const float* x, int64_t ldx, const float* y, int64_t ldy,
                        int64_t depth, float* out, int64_t ldo, int64_t rows, int64_t cols,
                        bool add);

// Whether chain_block uses AVX2 + FMA kernels on this CPU.
bool chain_block_uses_avx2();

}  // namespace tfs::detail
