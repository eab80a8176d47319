// Softmax and LogSoftmax over the last dim of a [rows, classes] matrix, computed the way TF 2.21's
// CPU kernels compute them, for TF's bits. Internal to src/ops.
//
// TF runs one of two kernels:
//  - Eigen's (softmax_op_functor.h on the ThreadPoolDevice): max per row; exp of logits - max;
//    the row sums in Eigen's reduction order (eigen_reduce.h); Softmax multiplies each exp by
//    the inverse of its row sum, LogSoftmax subtracts log(sum). Whole packets go through Eigen's
//    vector exp, log and reciprocal, the rest through scalar ones (softmax_eigen.cc says where).
//  - oneDNN's (TF's _MklSoftmax) for float32 Softmax when TF uses oneDNN (tf_onednn_enabled()):
//    a JIT kernel per row over vector registers of 4, 8 or 16 floats by ISA (softmax_onednn.cc).
//    LogSoftmax and float64 always run Eigen's.
#pragma once

#include <cstdint>

namespace tfs::detail {

// Eigen's kernel; `x` and `out` are rows x classes, row-major, and may be the same buffer.
void eigen_softmax(const float* x, int64_t rows, int64_t classes, bool log, float* out);
void eigen_softmax(const double* x, int64_t rows, int64_t classes, bool log, double* out);

// The vector ISA class of oneDNN's softmax kernel: its width and whether it fuses multiply-adds
// and masks the tail (AVX-512) or blends it (AVX2, SSE4.1).
enum class OnednnSoftmaxIsa { kSse41, kAvx2, kAvx512 };

// The ISA oneDNN 3.7 (TF 2.21's) picks for it on this CPU, capped by ONEDNN_MAX_CPU_ISA.
OnednnSoftmaxIsa onednn_softmax_isa();

// oneDNN's forward softmax_accurate (Softmax only) with the given ISA class.
void onednn_softmax(const float* x, int64_t rows, int64_t classes, OnednnSoftmaxIsa isa,
                    float* out);

}  // namespace tfs::detail
