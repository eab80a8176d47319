// The float32 GEMM of MatMul and BatchMatMulV2, summing in the order TF 2.21's x86 CPU kernels
// (oneDNN's, as chosen on an AVX-512 machine) use, so that tfscope's products carry the same bits
// as TF's. Internal to src/ops.
//
// Every output is a sum over k of a[i,k]*b[k,j]. The k range is cut into blocks; within a block
// the sum is a sequential float32 FMA chain from 0 in k order (acc = fma(a[i,k], b[k,j], acc)),
// and the block sums are added to the output in order (c = p0; c = c + p1; ...). That is how
// oneDNN's sgemm and brgemm kernels accumulate; only the cut differs between them (KSplit).
// Matrix-vector products and one more shape class of MatMul use dot-product kernels instead
// (SumOrder::kGemvDot, kDot16).
#pragma once

#include <cstdint>

namespace tfs::detail {

// Where the k range of each output's sum is cut.
struct KSplit {
  enum class Rule : uint8_t {
    kNone,     // one block: the plain sequential FMA sum over all of k
    kHalving,  // oneDNN's sgemm driver: blocks of bk while at least 2*bk remain, then what is
               // left in one block (at most bk) or two halves (the first one larger when odd)
    kChunks,   // oneDNN's brgemm: blocks of bk, the last one shorter
  };
  Rule rule = Rule::kNone;
  int64_t bk = 0;

  // The size of the next block when `remaining` (> 0) values of k are left.
  int64_t next_block(int64_t remaining) const;
};

enum class SumOrder : uint8_t {
  kBlocked,  // sequential FMA chains over the blocks of `split`, block sums added in order
  kDot16,    // a dot product over 16 lanes: lane l sums k = l mod 16 sequentially with FMA,
             // then the lanes are added by halving: l += l+8, l += l+4, l += l+2, l += l+1
  kGemvDot,  // oneDNN's matrix-vector dot product: k in runs of 16 into 8 lanes (lane l sums
             // k = l mod 8 with FMA), reduced as ((l0+l1)+(l4+l5)) + ((l2+l3)+(l6+l7)); then
             // what is left of k in pieces of 8, 4, 2 and 1, each summed on its own from
             // rounded products (8: the same tree; 4: (p0+p1)+(p2+p3); 2: p0+p1) and added to
             // the total in that order
};

struct GemmOrder {
  SumOrder sum = SumOrder::kBlocked;
  KSplit split;
};

// TF 2.21's order for a float32 MatMul of op(A) (m x k) by op(B) (k x n), as measured against
// tensorflow-cpu 2.21.0 on an AVX2 machine (see gemm_f32.cc for what was and was not matched).
GemmOrder tf_matmul_order(int64_t m, int64_t k, int64_t n, bool transpose_a, bool transpose_b);
// The same for each matrix product of a float32 BatchMatMulV2.
GemmOrder tf_batch_matmul_order(int64_t m, int64_t k, int64_t n);

// C (m x n, row-major) = op(A) (m x k) * op(B) (k x n), summed in `order`. A is stored m x k
// row-major, or k x m when transpose_a; B is k x n, or n x k when transpose_b. k == 0 gives
// zeros. Uses AVX-512 or AVX2+FMA when the CPU has them, else a scalar std::fma path with the same
// bits.
void gemm_f32(const float* a, bool transpose_a, const float* b, bool transpose_b, int64_t m,
              int64_t k, int64_t n, const GemmOrder& order, float* c);

// The scalar path of gemm_f32, callable directly so that tests cover it on AVX2 machines too.
void gemm_f32_scalar(const float* a, bool transpose_a, const float* b, bool transpose_b, int64_t m,
                     int64_t k, int64_t n, const GemmOrder& order, float* c);

// Whether gemm_f32 runs the AVX2+FMA kernels on this CPU.
bool gemm_f32_uses_avx2();

// The kernels gemm_f32 can run, in order; all give the same bits.
enum class GemmIsa : uint8_t { kScalar, kAvx2, kAvx512 };
GemmIsa gemm_f32_best_isa();  // what gemm_f32 runs on this CPU
// gemm_f32 on at most `isa` (capped by the CPU's best), so that tests cover the AVX2 kernels,
// which an AMD EPYC without AVX-512 runs, on a CPU that has AVX-512 too.
void gemm_f32_on(GemmIsa isa, const float* a, bool transpose_a, const float* b, bool transpose_b,
                 int64_t m, int64_t k, int64_t n, const GemmOrder& order, float* c);

}  // namespace tfs::detail
