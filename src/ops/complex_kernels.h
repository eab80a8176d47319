// The complex64/complex128 side of ops whose real kernels live elsewhere (AddV2, Sub, Mul,
// RealDiv, Equal, NotEqual, Neg, Cast). Internal to src/ops; the complex-only ops (Complex,
// Real, Imag, ComplexAbs, Conj, Angle) are registered in complex.cc.
#pragma once

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

// A type list with complex64 and complex128 appended (TF's "numbertypes" order aside).
std::vector<DType> with_complex(std::vector<DType> types);

}  // namespace tfs::detail
