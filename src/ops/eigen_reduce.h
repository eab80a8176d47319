// Eigen's tensor reductions in the order TF 2.21's CPU kernels run them, so that float sums,
// products and extremes carry TF's bits. Internal to src/ops.
//
// TF's wheel builds Eigen for AVX without FMA: a packet is 32 bytes (8 floats, 4 doubles) and
// every step is one rounded operation. TF's threads run with denormals flushed to zero (FTZ and
// DAZ), so inputs below the smallest normal number read as 0 and so do such results.
//
// What a reduction's value depends on (TensorReduction.h, TensorExecutor.h, TensorCostModel.h):
//  - InnerMostDimReducer (a run of n contiguous values from absolute index `first`): four packet
//    accumulators over blocks of 4 packets, folded as ((a0 . a1) . a2) . a3, then one packet at a
//    time into a0, the last n % lanes values into a scalar accumulator, and finally
//    scalar . predux(a0), predux halving the lanes (l . l+lanes/2, ...). Sums (not products,
//    extremes or integers) are cut in two halves while n > lanes * 1024, the cut aligned to a
//    packet boundary of the absolute index, and the halves' results added.
//  - FullReducer on the ThreadPoolDevice (all dims reduced): Eigen's cost model picks a number
//    of threads t from n; with t > 1 the values go to n / t blocks of n / t (the first
//    numblocks * blocksize values) and one more for the rest, each an InnerMostDimReducer, and
//    the block results are added to the rest's in block order.
//  - InnerMostDimPreserver (the reduced dims are outer, e.g. column sums): whole packets of
//    outputs that lie in one output row accumulate along the reduced dim, four accumulators
//    when there are 16 or more rows; other outputs (the last n_out % lanes, and packets that
//    would cross an output row) are plain sequential scalar sums.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "eigen_math.h"
#include "tfscope/thread_pool.h"

namespace tfs::detail {

// Lanes of one Eigen packet in TF's AVX build.
template <typename T>
inline constexpr int kEigenLanes = static_cast<int>(32 / sizeof(T));

template <typename T>
struct EigenPacket {
  T v[kEigenLanes<T>];
};

// Values read from memory as TF's threads read them (denormals as zero).
template <typename T>
struct MemorySource {
  using Scalar = T;
  const T* x;
  T coeff(int64_t i) const { return flush_denormal(x[i]); }
  void packet(int64_t i, EigenPacket<T>& p) const {
    for (int l = 0; l < kEigenLanes<T>; ++l) p.v[l] = flush_denormal(x[i + l]);
  }
};

// Eigen's reducers as TF's kernels instantiate them: reduce(t, acc) folds one value into a
// scalar accumulator, reduce_lane(p, acc) one packet lane into a packet accumulator, predux_op
// combines two lanes of a packet, finalize_both(scalar, predux) ends a run. Operand order is
// Eigen's: it decides which of two equal extremes (+0 and -0) survives.
template <typename T>
struct SumReducer {
  static constexpr bool kTree = true;
  static T identity() { return T(0); }
  static T reduce(T t, T acc) { return flush_denormal(acc + t); }
  static T reduce_lane(T p, T acc) { return flush_denormal(acc + p); }
  static T predux_op(T a, T b) { return flush_denormal(a + b); }
  static T finalize_both(T s, T v) { return flush_denormal(s + v); }
};

template <typename T>
struct ProdReducer {
  static constexpr bool kTree = false;  // Eigen's ProdReducer says it is exactly associative
  static T identity() { return T(1); }
  static T reduce(T t, T acc) { return flush_denormal(acc * t); }
  static T reduce_lane(T p, T acc) { return flush_denormal(acc * p); }
  static T predux_op(T a, T b) { return flush_denormal(a * b); }
  static T finalize_both(T s, T v) { return flush_denormal(s * v); }
};

// MaxReducer<T, PropagateNaN> / MinReducer: a NaN operand wins (the first one), else the
// larger (smaller) value. On a tie (+0 and -0) Eigen's scalar op keeps its first operand
// (std::max) and its x86 packet op its second (MAXPS with the operands swapped).
template <typename T, bool kMax>
struct ExtremeReducer {
  static constexpr bool kTree = false;
  static T identity() {
    return kMax ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  }
  static bool beats(T a, T b) { return kMax ? a > b : a < b; }
  static T scalar_op(T a, T b) {
    if (std::isnan(a)) return a;
    if (std::isnan(b)) return b;
    return beats(b, a) ? b : a;
  }
  static T packet_op(T a, T b) {
    if (std::isnan(a)) return a;
    return beats(a, b) ? a : b;
  }
  static T reduce(T t, T acc) { return scalar_op(t, acc); }
  static T reduce_lane(T p, T acc) { return packet_op(acc, p); }
  static T predux_op(T a, T b) { return packet_op(a, b); }
  static T finalize_both(T s, T v) { return scalar_op(s, v); }
};

// MaxReducer<T> with Eigen's default PropagateFast, as the tensor .maximum() in TF's Softmax:
// std::max for scalars, MAXPS for packets, so a NaN is kept only where it is the operand those
// return; Eigen does not count it exactly associative, so long rows are cut in halves as sums.
template <typename T>
struct FastMaxReducer {
  static constexpr bool kTree = true;
  static T identity() { return -std::numeric_limits<T>::infinity(); }
  static T reduce(T t, T acc) { return t < acc ? acc : t; }
  static T reduce_lane(T p, T acc) { return p > acc ? p : acc; }
  static T predux_op(T a, T b) { return b > a ? b : a; }
  static T finalize_both(T s, T v) { return s < v ? v : s; }
};

template <class R, typename T>
T eigen_predux(EigenPacket<T> p) {
  for (int h = kEigenLanes<T> / 2; h >= 1; h /= 2) {
    for (int l = 0; l < h; ++l) p.v[l] = R::predux_op(p.v[l], p.v[l + h]);
  }
  return p.v[0];
}

template <class R, typename T>
void fold_packet(const EigenPacket<T>& p, EigenPacket<T>& acc) {
  for (int l = 0; l < kEigenLanes<T>; ++l) acc.v[l] = R::reduce_lane(p.v[l], acc.v[l]);
}

template <class R, typename T>
EigenPacket<T> identity_packet() {
  EigenPacket<T> p;
  for (int l = 0; l < kEigenLanes<T>; ++l) p.v[l] = R::identity();
  return p;
}

// InnerMostDimReducer without the tree: values in[first, first + n).
template <class R, class Src>
typename Src::Scalar reduce_run(const Src& in, int64_t first, int64_t n) {
  using T = typename Src::Scalar;
  constexpr int64_t kL = kEigenLanes<T>;
  EigenPacket<T> acc0 = identity_packet<R, T>(), p;
  int64_t start = 0;
  if (n >= 4 * kL) {
    const int64_t blocks_end = n / (4 * kL) * (4 * kL);
    EigenPacket<T> acc1 = acc0, acc2 = acc0, acc3 = acc0;
    for (int64_t j = 0; j < blocks_end; j += 4 * kL) {
      in.packet(first + j, p);
      fold_packet<R>(p, acc0);
      in.packet(first + j + kL, p);
      fold_packet<R>(p, acc1);
      in.packet(first + j + 2 * kL, p);
      fold_packet<R>(p, acc2);
      in.packet(first + j + 3 * kL, p);
      fold_packet<R>(p, acc3);
    }
    fold_packet<R>(acc1, acc0);
    fold_packet<R>(acc2, acc0);
    fold_packet<R>(acc3, acc0);
    start = blocks_end;
  }
  const int64_t packets_end = n / kL * kL;
  for (int64_t j = start; j < packets_end; j += kL) {
    in.packet(first + j, p);
    fold_packet<R>(p, acc0);
  }
  T acc = R::identity();
  for (int64_t j = packets_end; j < n; ++j) acc = R::reduce(in.coeff(first + j), acc);
  return R::finalize_both(acc, eigen_predux<R>(acc0));
}

// InnerMostDimReducer: reduce_run, cut in halves first for the tree reducers.
template <class R, class Src>
typename Src::Scalar reduce_inner(const Src& in, int64_t first, int64_t n) {
  using T = typename Src::Scalar;
  constexpr int64_t kL = kEigenLanes<T>;
  if (R::kTree && n > kL * 1024) {
    const int64_t half = (n + 1) / 2;
    const int64_t split = kL * ((first + half + kL - 1) / kL);
    const int64_t num_left = std::min(split - first, n);
    T acc = R::reduce(reduce_inner<R>(in, first, num_left), R::identity());
    if (num_left < n) acc = R::reduce(reduce_inner<R>(in, split, n - num_left), acc);
    return acc;
  }
  return reduce_run<R>(in, first, n);
}

// The threads Eigen's cost model gives a full reduction of n values of `bytes` each on a pool
// of max_threads: a load of `bytes` and Eigen's default functor cost (10) per packet lane.
inline int full_reduction_threads(int64_t n, int bytes, int lanes, int max_threads) {
  const double load_cycles = 1.0 / 64 * 11;
  const double per_coeff = load_cycles * bytes + 10.0 / lanes;
  const double cost = static_cast<double>(n) * per_coeff;
  double threads = (cost - 100000) / 100000 + 0.9;
  threads = std::min<double>(threads, std::numeric_limits<int>::max());
  return std::min(max_threads, std::max(1, static_cast<int>(threads)));
}

// FullReducer on TF's ThreadPoolDevice: in[0, n), n > 0, sharded for a pool of max_threads
// threads; the shards' bits do not depend on which thread runs them.
template <class R, class Src>
typename Src::Scalar reduce_full(const Src& in, int64_t n, int max_threads) {
  using T = typename Src::Scalar;
  const int threads = full_reduction_threads(n, sizeof(T), kEigenLanes<T>, max_threads);
  if (threads == 1) return reduce_inner<R>(in, 0, n);
  const int64_t block = n / threads;
  const int64_t blocks = n / block;
  // The shards run on the intra-op pool; their sums are combined here in TF's order.
  std::vector<T> sums(static_cast<size_t>(blocks));
  intra_op_pool().parallel_for(blocks, [&](int64_t i) {
    sums[static_cast<size_t>(i)] = reduce_inner<R>(in, i * block, block);
  });
  T total =
      blocks * block < n ? reduce_inner<R>(in, blocks * block, n - blocks * block) : R::identity();
  for (int64_t i = 0; i < blocks; ++i) total = R::reduce(sums[static_cast<size_t>(i)], total);
  return total;
}

// x viewed as [outer, rows, cols], reduced over rows: out[o * cols + c]. Eigen evaluates whole
// packets of outputs that lie in one output row with InnerMostDimPreserver (lanes accumulate
// down the rows, in four accumulators by row mod 4 when there are 16 rows or more, folded into
// the first before the last rows mod 4), the other outputs with GenericDimReducer (one scalar
// sum down the rows). Each output's sequence of operations is Eigen's; the rows are streamed
// once, in memory order, for all outputs of an outer index.
template <class R, typename T>
void reduce_preserving_inner(const T* x, int64_t outer, int64_t rows, int64_t cols, T* out) {
  constexpr int64_t kL = kEigenLanes<T>;
  const int64_t n_out = outer * cols;
  const int64_t packets_end = n_out - n_out % kL;
  const int64_t blocks_end = rows >= 16 ? rows / 4 * 4 : 0;
  std::vector<T> acc[4];
  for (auto& a : acc) a.resize(static_cast<size_t>(cols));
  std::vector<char> in_packet(static_cast<size_t>(cols));
  for (int64_t ob = 0; ob < outer; ++ob) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t o = ob * cols + c, first = o - o % kL;
      in_packet[static_cast<size_t>(c)] = o < packets_end && first % cols + kL - 1 < cols;
    }
    for (auto& a : acc) std::fill(a.begin(), a.end(), R::identity());
    const T* block = x + ob * rows * cols;
    for (int64_t j = 0; j < rows; ++j) {
      const T* row = block + j * cols;
      T* lane_acc = acc[j < blocks_end ? j % 4 : 0].data();
      T* scalar_acc = acc[0].data();
      for (int64_t c = 0; c < cols; ++c) {
        const T v = flush_denormal(row[c]);
        if (in_packet[static_cast<size_t>(c)]) {
          lane_acc[c] = R::reduce_lane(v, lane_acc[c]);
        } else {
          scalar_acc[c] = R::reduce(v, scalar_acc[c]);
        }
      }
      if (j + 1 == blocks_end) {
        for (int k = 1; k < 4; ++k) {
          for (int64_t c = 0; c < cols; ++c) {
            if (in_packet[static_cast<size_t>(c)]) acc[0][c] = R::reduce_lane(acc[k][c], acc[0][c]);
          }
        }
      }
    }
    std::copy(acc[0].begin(), acc[0].end(), out + ob * cols);
  }
}

// x viewed as [a, b, c], reduced over a and c (GenericDimReducer: c outer, a inner).
template <class R, typename T>
void reduce_outer_and_inner(const T* x, int64_t a, int64_t b, int64_t c, T* out) {
  for (int64_t j = 0; j < b; ++j) {
    T acc = R::identity();
    for (int64_t k = 0; k < c; ++k) {
      for (int64_t i = 0; i < a; ++i) acc = R::reduce(flush_denormal(x[(i * b + j) * c + k]), acc);
    }
    out[j] = acc;
  }
}

}  // namespace tfs::detail
