// The complex64/complex128 side of ops whose real kernels live elsewhere (AddV2, Sub, Mul,
// RealDiv, Equal, NotEqual, Neg, Square, Cast, Mean's division). Internal to src/ops; the
// complex-only ops (Complex, Real, Imag, ComplexAbs, Conj, Angle) are registered in complex.cc.
#pragma once

#include <cstdint>
#include <vector>

#include "tfscope/complex.h"
#include "tfscope/op_def.h"

namespace tfs::detail {

enum class ComplexBinary { kAdd, kSub, kMul, kDiv, kEqual, kNotEqual };

// Both inputs complex of one dtype, numpy broadcasting, TF's bits (complex.cc says how).
void complex_binary_kernel(OpKernelContext& ctx, ComplexBinary op);
void complex_neg_kernel(OpKernelContext& ctx);
// Cast where the source or the destination is complex (TF's Eigen casts: a real source is the
// real part; a complex source keeps its real part for a real destination).
void complex_cast(const Tensor& x, Tensor& out);

// Square: x * x, each element as a complex product (the packet and the scalar one agree).
void complex_square_kernel(OpKernelContext& ctx);
// out[i] / count for i < n, as TF's Mean divides its complex sums (an Eigen expression over the
// outputs: whole packets of them with pdiv_complex, the rest with Smith's algorithm).
void complex_divide_by_count(complex64* out, int64_t n, int64_t count);
void complex_divide_by_count(complex128* out, int64_t n, int64_t count);

// Sqrt: Eigen's psqrt_complex on whole packets (4 complex64, 2 complex128), its complex_sqrt on
// the rest.
void complex_sqrt_kernel(OpKernelContext& ctx);

// Exp: the C library's cexp (std::exp), which is TF's on complex128 and on the complex64 elements
// past the last whole packet; on complex64 packets TF runs Eigen's pexp_complex (its own exp and
// sin/cos polynomials), not reproduced: within 2 epsilon of |exp(z)| of TF there (measured).
void complex_exp_kernel(OpKernelContext& ctx);

// MatMul: out (m x n) = op(a) (m x k) * op(b) (k x n), a and b row-major (k x m / n x k when
// transposed), summed as Eigen's gebp kernel sums each output in TF's tensor contraction
// (complex.cc says which kernel takes which output).
void complex_matmul(const Tensor& a, bool ta, const Tensor& b, bool tb, int64_t m, int64_t k,
                    int64_t n, Tensor& out);

// A type list with complex64 and complex128 appended (TF's "numbertypes" order aside).
std::vector<DType> with_complex(std::vector<DType> types);

}  // namespace tfs::detail
