// A dense layer in one step: BiasAdd(MatMul(a, w), bias), and Relu of it, float32, which the
// executor runs as one plan step where the product and the sum have no other use (src/graph/
// step_fusion.cc). The product is MatMul's kernel's (matmul_f32.h), written into the step's
// output; the bias is added to it in place as BiasAdd's kernel adds it, and Relu's kernel's
// packets then run over it in place: the three kernels' operations on each element, in their
// order, so the bits are theirs. Internal to src/ops and src/graph.
#pragma once

#include "tfscope/op_def.h"

namespace tfs::detail {

// On ctx's inputs (a, w, bias) with MatMul's transpose flags: allocates output 0 and computes
// the layer, or returns false with nothing done where an input is not what the three kernels
// accept (a dtype, a rank, a size): then the caller runs the kernels, which say what is wrong as
// TF does.
bool dense_f32(OpKernelContext& ctx, bool ta, bool tb, bool relu);

}  // namespace tfs::detail
