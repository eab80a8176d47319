// Eigen's Softmax and LogSoftmax as TF 2.21 runs softmax_op_functor.h on its ThreadPoolDevice,
// with the split between Eigen's packet and scalar math that decides the last bits:
//
//  Softmax:    E = exp(logits - max) is one tiled assignment (the expression broadcasts the row
//              max): Eigen's block mapper cuts the [rows, classes] output into blocks of about
//              40000 / cost elements (6956 floats, 2539 doubles: a load, a store and the exp
//              and subtraction per element, on packets), whole rows per block when a row fits,
//              else pieces of one row. Each block is contiguous in the output and evaluated as one
//              run: whole packets with the vector exp, the last (size % lanes) values with
//              std::exp. Then sum = E summed per row (eigen_reduce.h), inverted — the CPU's
//              reciprocal estimate refined by one Newton step for whole packets of float rows,
//              an exact division for the last (rows % lanes) rows and for doubles — and
//              out = E * (1 / sum).
//  LogSoftmax: out = logits - max; sum = exp(out) summed per row, the exp evaluated inside the
//              reduction (vector exp on its packets, std::exp on the rest of each run); log of
//              the sums on whole packets of rows with the vector log, the last rows with
//              std::log; out -= log(sum).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "eigen_math.h"
#include "eigen_reduce.h"
#include "eigen_special.h"
#include "softmax.h"

namespace tfs::detail {
namespace {

// Eigen's cost of one exp on a packet lane (functor_traits<scalar_exp_op>, no FMA build).
template <typename T>
constexpr double kExpCost = sizeof(T) == 4 ? 21 + 13 : 23 + 12 + 16;

// The block size of the tiled Softmax exp: Eigen's TensorExecutorTilingContext sets it to
// 1 / taskSize, taskSize being the cost of one element over 40000 cycles.
template <typename T>
int64_t exp_block_size() {
  const double lanes = kEigenLanes<T>;
  const double bytes_cycles = 1.0 / 64 * 11 * sizeof(T);
  const double compute = 1.0 / lanes + kExpCost<T> / lanes;   // subtraction, exp
  const double cost = bytes_cycles + bytes_cycles + compute;  // load, store
  const double task_size = cost / 40000;
  return static_cast<int64_t>(1.0 / task_size);
}

template <typename T>
T scalar_exp(T x) {
  return flush_denormal(std::exp(x));
}

// exp(in[i]) as Eigen's reduction reads it from the LogSoftmax expression.
template <typename T>
struct ExpSource {
  using Scalar = T;
  const T* x;
  T coeff(int64_t i) const { return scalar_exp(x[i]); }
  void packet(int64_t i, EigenPacket<T>& p) const {
    for (int l = 0; l < kEigenLanes<T>; ++l) p.v[l] = packet_exp(x[i + l]);
  }
};

// out[begin, begin + n) = exp(out[...]) as one run of Eigen's block assignment.
template <typename T>
void exp_run(T* out, int64_t begin, int64_t n) {
  const int64_t packed = n - n % kEigenLanes<T>;
  for (int64_t i = 0; i < packed; ++i) out[begin + i] = packet_exp(out[begin + i]);
  for (int64_t i = packed; i < n; ++i) out[begin + i] = scalar_exp(out[begin + i]);
}

// The blocks of Eigen's skewed block mapper over [rows, classes], each one run.
template <typename T>
void exp_blocks(T* out, int64_t rows, int64_t classes) {
  const int64_t target = std::max<int64_t>(1, exp_block_size<T>());
  if (rows * classes <= target) {
    exp_run(out, 0, rows * classes);
  } else if (classes <= target) {
    const int64_t block_rows = std::min((target + classes - 1) / classes, rows);
    for (int64_t r = 0; r < rows; r += block_rows) {
      exp_run(out, r * classes, std::min(block_rows, rows - r) * classes);
    }
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < classes; c += target) {
        exp_run(out, r * classes + c, std::min(target, classes - c));
      }
    }
  }
}

template <typename T>
void softmax_impl(const T* x, int64_t rows, int64_t classes, bool log, T* out) {
  const int64_t packed_rows = rows - rows % kEigenLanes<T>;
  const MemorySource<T> logits{x};
  for (int64_t r = 0; r < rows; ++r) {
    const T m = reduce_inner<FastMaxReducer<T>>(logits, r * classes, classes);
    for (int64_t c = 0; c < classes; ++c) {
      out[r * classes + c] = flush_denormal(logits.coeff(r * classes + c) - m);
    }
  }
  if (log) {
    const ExpSource<T> src{out};
    for (int64_t r = 0; r < rows; ++r) {
      const T sum = reduce_inner<SumReducer<T>>(src, r * classes, classes);
      const T log_sum = r < packed_rows ? packet_log(sum) : flush_denormal(std::log(sum));
      for (int64_t c = 0; c < classes; ++c) {
        out[r * classes + c] = flush_denormal(out[r * classes + c] - log_sum);
      }
    }
    return;
  }
  exp_blocks(out, rows, classes);
  const MemorySource<T> src{out};
  for (int64_t r = 0; r < rows; ++r) {
    const T sum = reduce_inner<SumReducer<T>>(src, r * classes, classes);
    const T inv = r < packed_rows ? eigen_reciprocal<true>(sum) : eigen_reciprocal<false>(sum);
    for (int64_t c = 0; c < classes; ++c) {
      out[r * classes + c] = flush_denormal(out[r * classes + c] * inv);
    }
  }
}

}  // namespace

void eigen_softmax(const float* x, int64_t rows, int64_t classes, bool log, float* out) {
  softmax_impl(x, rows, classes, log, out);
}

void eigen_softmax(const double* x, int64_t rows, int64_t classes, bool log, double* out) {
  softmax_impl(x, rows, classes, log, out);
}

}  // namespace tfs::detail
