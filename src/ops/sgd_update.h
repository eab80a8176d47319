// The update of a weight at batch 1 in one pass: AssignSubVariableOp(v, Mul(s, MatMul(x, dy)))
// with k = 1 in the MatMul (x^T dy: one row of x, one of dy), which the executor fuses
// (executor.cc) when neither the product nor the scaled product has another use. The three
// kernels would each walk the whole m x n matrix (the product written; read, scaled and written;
// read and subtracted); here one loop reads the variable and writes it once, each element's
// product, scaling and difference the three kernels' IEEE operations in registers
// (float_loops.h's float_outer_sub512), so the variable ends with the same bits. Internal to
// src/ops and src/graph.
#pragma once

#include <cstdint>

#include "tfscope/ops.h"

namespace tfs::detail {

// Whether the MatMul's product (op(x) m x 1 by op(dy) 1 x n) is one the fused update computes
// as TF's MatMul kernel does here (matmul_f32.h's tf_matmul_is_outer).
bool fused_outer_update_applies(bool ta, bool tb, int64_t m, int64_t k, int64_t n);

// v -= s * (a_i * b_j) for the float32 m x n variable behind `handle` (a: m values, b: n; s_first:
// the Mul's first operand is s). False,
// with nothing done, where the handle is not an initialized float32 variable of shape m x n:
// then the caller runs the three kernels, which say what is wrong as TF does.
bool fused_outer_assign_sub(const Tensor& handle, float s, bool s_first, const float* a,
                            const float* b, int64_t m, int64_t n);

}  // namespace tfs::detail
