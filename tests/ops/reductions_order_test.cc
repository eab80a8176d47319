// Float reductions and Softmax in TF 2.21's order, against worked-out numbers and against bits
// recorded from tensorflow-cpu 2.21.0 (on an Intel Xeon, family 6 model 207). Every recorded
// case is one whose bits do not depend on the CPU: non-full reductions and full ones below the
// thread threshold run the same on every CPU count; full reductions above it are checked for
// given thread counts (recorded with TF_NUM_INTRAOP_THREADS); oneDNN's Softmax for each of its
// ISA classes (recorded with ONEDNN_MAX_CPU_ISA); Eigen's Softmax only where it divides exactly
// (its packet reciprocal starts from the CPU's RCPPS estimate, which differs between vendors; the
// conformance suite compares those live).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "eigen_reduce.h"
#include "op_test_util.h"
#include "softmax.h"
#include "tfscope/cpu_info.h"

namespace tfs {
namespace {

using detail::MemorySource;
using testing::f32;
using testing::run1;
using testing::values;

// Deterministic inputs over twelve binary orders of magnitude, generated the same way by the
// script that recorded TF's results: m(i) = ((i * 2654435761 + seed * 40503) mod 2003 - 1001)
// / 97, scaled by 2^((7i + seed) mod 13 - 6).
template <typename T>
std::vector<T> data(int64_t n, int64_t seed) {
  std::vector<T> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const double m = static_cast<double>((i * 2654435761LL + seed * 40503) % 2003 - 1001) / 97.0;
    v[static_cast<size_t>(i)] =
        std::ldexp(static_cast<T>(m), static_cast<int>((i * 7 + seed) % 13 - 6));
  }
  return v;
}

// FNV-1a over the bytes, as the recording script hashed TF's outputs.
template <typename T>
uint64_t fnv(const std::vector<T>& v) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const auto* p = reinterpret_cast<const unsigned char*>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(T); ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

Tensor sum(const Tensor& x, const std::vector<int32_t>& axes, const std::string& op = "Sum") {
  return run1(op, {x, testing::i32(axes)});
}

template <typename T>
Tensor tensor(std::vector<T> v, const Shape& s) {
  return Tensor::from_vector(v, s);
}

// ---- the order itself, worked out by hand ----

TEST(ReductionOrderTest, FourPacketAccumulatorsThenTheScalarTail) {
  // 2^24 then 32 ones. Lanes of 8 floats: accumulator k takes packet k, so 2^24 sits in lane 0
  // of accumulator 0 and every other lane holds one 1. Folding accumulators 1, 2, 3 into 0 adds
  // a 1 to 2^24 three times (each rounds back to 2^24) and leaves 4 in lanes 1-7; the 33rd value
  // goes to the scalar accumulator. predux halves the lanes: (2^24 + 4) + 4 ... = 2^24 + 28, and
  // 1 + (2^24 + 28) rounds to 2^24 + 28 (ties to even). TF: 0x1.00001cp+24. A running sum gives
  // 2^24, the exact sum is 2^24 + 32.
  std::vector<float> v(33, 1.0f);
  v[0] = 16777216.0f;
  EXPECT_EQ(values<float>(sum(f32(v), {0})), std::vector<float>{16777244.0f});
}

TEST(ReductionOrderTest, SumsLongerThan8192FloatsAreCutInHalves) {
  // 2^24 then 8199 ones: more than 8 * 1024 floats, so Eigen sums [0, 4104) and [4104, 8200) (the
  // cut at a packet boundary) apart and adds the halves. TF gives 2^24 + 8070; one run of packet
  // accumulators over all 8200 would give 2^24 + 7942, a running sum 2^24.
  std::vector<float> v(8200, 1.0f);
  v[0] = 16777216.0f;
  EXPECT_EQ(values<float>(sum(f32(v), {0}))[0], 16777216.0f + 8070.0f);
  EXPECT_EQ(detail::reduce_run<detail::SumReducer<float>>(MemorySource<float>{v.data()}, 0, 8200),
            16777216.0f + 7942.0f);
}

TEST(ReductionOrderTest, ThreadsForAFullReductionFollowEigensCostModel) {
  // cost = n * (4 bytes * 11/64 + 10 / 8 lanes) = 1.9375 n cycles; threads = (cost - 1e5) / 1e5
  // + 0.9, at least 1, at most the pool: two threads from 210000 cycles, n = 108388, on.
  EXPECT_EQ(detail::full_reduction_threads(108387, 4, 8, 16), 1);
  EXPECT_EQ(detail::full_reduction_threads(108388, 4, 8, 16), 2);
  EXPECT_EQ(detail::full_reduction_threads(20000000, 4, 8, 2), 2);
  EXPECT_EQ(detail::full_reduction_threads(20000000, 4, 8, 1000), 387);
  // float64: 8 * 11/64 + 10 / 4 = 3.875 cycles per value; two threads from 54194 values.
  EXPECT_EQ(detail::full_reduction_threads(54193, 8, 4, 16), 1);
  EXPECT_EQ(detail::full_reduction_threads(54194, 8, 4, 16), 2);
}

TEST(ReductionOrderTest, ShardsOfAFullReductionAreAddedToTheRest) {
  // 2e7 ones on t threads: t blocks of 2e7 / t ones and the rest, each summed exactly (the tree
  // keeps every partial sum far below 2^24), then the block sums added to the rest in order. With
  // 2 threads: 0 + 1e7 + 1e7 = 2e7, where a running sum stops at 2^24. With 19: 11 + 19 * 1052631
  // in order; the partial sums above 2^24 round to even, and the total lands on 2e7 + 4.
  const int64_t n = 20000000;
  std::vector<float> ones(static_cast<size_t>(n), 1.0f);
  const MemorySource<float> src{ones.data()};
  using Sum = detail::SumReducer<float>;
  EXPECT_EQ(detail::reduce_full<Sum>(src, n, 1), 2e7f);
  EXPECT_EQ(detail::reduce_full<Sum>(src, n, 2), 2e7f);
  EXPECT_EQ(detail::reduce_full<Sum>(src, n, 19), 20000004.0f);
}

TEST(ReductionOrderTest, TwentyMillionOnesAsTheIssueReports) {
  // tf.reduce_sum(tf.ones([2e7])) is 2e7 in TF (16777216 summed one by one), and the mean 1.
  // 2e7 holds for every pool of up to 18 threads (see above), so for the CPU counts tests run on.
  if (tf_intra_op_threads() > 18) GTEST_SKIP() << "more than 18 intra-op threads";
  const Tensor ones = run1("Fill", {testing::i32({20000000}), Tensor::scalar(1.0f)});
  EXPECT_EQ(values<float>(sum(ones, {0}))[0], 2e7f);
  EXPECT_EQ(values<float>(sum(ones, {0}, "Mean"))[0], 1.0f);
}

TEST(ReductionOrderTest, SignedZerosSurviveAsEigensMaxLeavesThem) {
  // Eigen's scalar max keeps its first operand on a tie, its packet max the second: of [-0, 0]
  // the later value wins (+0), of [0, -0] too (-0). TF: 0x00000000 and 0x80000000.
  EXPECT_FALSE(std::signbit(values<float>(sum(f32({-0.0f, 0.0f}), {0}, "Max"))[0]));
  EXPECT_TRUE(std::signbit(values<float>(sum(f32({0.0f, -0.0f}), {0}, "Max"))[0]));
  // 40 values alternating -0, +0 go through the packet accumulators: TF gives +0.
  std::vector<float> z(40, 0.0f);
  for (size_t i = 0; i < z.size(); i += 2) z[i] = -0.0f;
  EXPECT_FALSE(std::signbit(values<float>(sum(f32(z), {0}, "Max"))[0]));
}

TEST(ReductionOrderTest, DenormalsReadAsZeroAndFlushToZero) {
  // TF's threads run with FTZ and DAZ: 1e-40 is 0, and 1.5e-38 - 1.4e-38 (a denormal) is 0.
  EXPECT_EQ(values<float>(sum(f32({1e-40f, 1e-40f}), {0}))[0], 0.0f);
  EXPECT_EQ(values<float>(sum(f32({1.5e-38f, -1.4e-38f}), {0}))[0], 0.0f);
  EXPECT_EQ(values<float>(sum(f32({1e-20f, 1e-20f}), {0}, "Prod"))[0], 0.0f);
}

// ---- recorded from TF 2.21 ----

TEST(ReductionOrderTest, FullReductionsBelowTheThreadThreshold) {
  EXPECT_EQ(values<float>(sum(f32(data<float>(8193, 1)), {0}))[0], 0x1.23960ap+9f);
  EXPECT_EQ(values<float>(sum(f32(data<float>(100000, 1)), {0}))[0], 0x1.57a01p+9f);
  EXPECT_EQ(values<double>(sum(tensor(data<double>(50000, 10), Shape({50000})), {0}))[0],
            -0x1.30eba0fd5c5f6p+11);
}

TEST(ReductionOrderTest, FullReductionsForGivenThreadCounts) {
  const std::vector<float> x = data<float>(300000, 11), y = data<float>(1000003, 12);
  std::vector<float> p = data<float>(300000, 13);
  for (float& v : p) v = 1.0f + v / 100000.0f;
  using Sum = detail::SumReducer<float>;
  using Prod = detail::ProdReducer<float>;
  struct Recorded {
    int threads;
    float sum300000, sum1000003, prod300000;
  };
  for (const Recorded& r : {Recorded{1, 0x1.eb35bp+8f, -0x1.239182p+9f, 0x1.94eb7ap-1f},
                            Recorded{2, 0x1.eb35bp+8f, -0x1.23919p+9f, 0x1.94e674p-1f},
                            Recorded{3, 0x1.eb392p+8f, -0x1.23937p+9f, 0x1.94e508p-1f},
                            Recorded{7, 0x1.eb386p+8f, -0x1.239668p+9f, 0x1.94e48p-1f}}) {
    SCOPED_TRACE(r.threads);
    EXPECT_EQ(detail::reduce_full<Sum>(MemorySource<float>{x.data()}, 300000, r.threads),
              r.sum300000);
    EXPECT_EQ(detail::reduce_full<Sum>(MemorySource<float>{y.data()}, 1000003, r.threads),
              r.sum1000003);
    EXPECT_EQ(detail::reduce_full<Prod>(MemorySource<float>{p.data()}, 300000, r.threads),
              r.prod300000);
  }
}

TEST(ReductionOrderTest, RowsColumnsMiddleAndTransposedDims) {
  auto hash = [](const Tensor& t) { return fnv(values<float>(t)); };
  EXPECT_EQ(hash(sum(tensor(data<float>(20 * 9000, 2), Shape({20, 9000})), {1})),
            0x1df1b4a987cb87b3ULL);
  EXPECT_EQ(hash(sum(tensor(data<float>(300 * 37, 3), Shape({300, 37})), {0})),
            0x95bcf5f3739d1150ULL);
  EXPECT_EQ(hash(sum(tensor(data<float>(15 * 37, 4), Shape({15, 37})), {0})),
            0x0092749a75354258ULL);
  EXPECT_EQ(hash(sum(tensor(data<float>(6 * 50 * 13, 5), Shape({6, 50, 13})), {1})),
            0x116fe7796ecd2122ULL);
  EXPECT_EQ(hash(sum(tensor(data<float>(6 * 50 * 13, 6), Shape({6, 50, 13})), {0, 2})),
            0x79d266db15825e8dULL);
  EXPECT_EQ(hash(sum(tensor(data<float>(4 * 5 * 6 * 7, 7), Shape({4, 5, 6, 7})), {0, 2})),
            0xaf764115c0ae761bULL);
  EXPECT_EQ(hash(sum(tensor(data<float>(20 * 9000, 2), Shape({20, 9000})), {1}, "Mean")),
            0x73d06865cd3ba3f1ULL);
  std::vector<float> near1 = data<float>(40 * 50, 8);
  for (float& v : near1) v = 1.0f + v / 1000.0f;
  EXPECT_EQ(hash(sum(tensor(near1, Shape({40, 50})), {1}, "Prod")), 0x05ccafe96e2174deULL);
  EXPECT_EQ(values<float>(sum(tensor(near1, Shape({40, 50})), {0, 1}, "Prod"))[0], 0x1.18667cp-24f);
  EXPECT_EQ(fnv(values<double>(sum(tensor(data<double>(30 * 5000, 9), Shape({30, 5000})), {1}))),
            0x9b67a10821af6fa5ULL);
}

// ---- Softmax ----

std::vector<float> softmax_input(int64_t n, int64_t seed) {
  std::vector<float> v = data<float>(n, seed);
  for (float& x : v) x /= 64.0f;
  return v;
}

TEST(SoftmaxOrderTest, OneDnnKernelPerIsaClass) {
  using Isa = detail::OnednnSoftmaxIsa;
  struct Recorded {
    int64_t rows, classes, seed;
    uint64_t avx512, avx2, sse41;
  };
  for (const Recorded& r :
       {Recorded{3, 37, 20, 0xdb66228b7df7035cULL, 0x7d4e08b635540778ULL, 0x2cd05f41b350ded3ULL},
        Recorded{2, 100, 21, 0x3ff8789e037353a2ULL, 0x3ff8789e037353a2ULL, 0x2e1439e288be49a6ULL},
        Recorded{5, 16, 22, 0x93e39ff3a8aa3d59ULL, 0x93e39ff3a8aa3d59ULL, 0x9a606ec0509dc2e5ULL},
        Recorded{1, 9000, 23, 0xc2b5062fa8a7d07eULL, 0xc2b5062fa8a7d07eULL, 0x4986089f259f5465ULL},
        Recorded{7, 64, 24, 0x943d3a1791dd7b0aULL, 0x039a887640899274ULL, 0x0e67cc9e8e7c6d7bULL}}) {
    SCOPED_TRACE(std::to_string(r.rows) + "x" + std::to_string(r.classes));
    const std::vector<float> x = softmax_input(r.rows * r.classes, r.seed);
    std::vector<float> y(x.size());
    detail::onednn_softmax(x.data(), r.rows, r.classes, Isa::kAvx512, y.data());
    EXPECT_EQ(fnv(y), r.avx512);
    detail::onednn_softmax(x.data(), r.rows, r.classes, Isa::kAvx2, y.data());
    EXPECT_EQ(fnv(y), r.avx2);
    detail::onednn_softmax(x.data(), r.rows, r.classes, Isa::kSse41, y.data());
    EXPECT_EQ(fnv(y), r.sse41);
  }
}

TEST(SoftmaxOrderTest, OneDnnExpUnderflowsEarlierThanEigens) {
  // oneDNN scales by 2 * 2^(n-1), which is 0 from n = -126 on: exp(-86.8) is 0 there, 2.1e-38 in
  // Eigen's kernel. TF's values for softmax([0, -80, -86.5, -86.8, -87]).
  const std::vector<float> x = {0.0f, -80.0f, -86.5f, -86.8f, -87.0f};
  std::vector<float> y(x.size());
  detail::onednn_softmax(x.data(), 1, 5, detail::OnednnSoftmaxIsa::kAvx512, y.data());
  EXPECT_EQ(y, (std::vector<float>{1.0f, 0x1.7fd97cp-116f, 0x1.2778eap-125f, 0.0f, 0.0f}));
  detail::eigen_softmax(x.data(), 1, 5, false, y.data());
  EXPECT_EQ(y, (std::vector<float>{1.0f, 0x1.7fd974p-116f, 0x1.2778e8p-125f, 0x1.b5c7fap-126f,
                                   0x1.666d0ep-126f}));
}

TEST(SoftmaxOrderTest, EigensKernelWhereItDividesExactly) {
  struct Recorded {
    int64_t rows, classes, seed;
    uint64_t softmax, log_softmax, softmax64, log_softmax64;
  };
  // Fewer than 8 rows: every float row sum is inverted by an exact division.
  for (const Recorded& r : {Recorded{3, 37, 20, 0x49360299c3d23ae0ULL, 0xba19d77c71237e75ULL,
                                     0x47b80df880523333ULL, 0x1197a6e97e5b987fULL},
                            Recorded{2, 100, 21, 0xb7284eae3b9e411fULL, 0xdf0f2857a73e64d0ULL,
                                     0x90db552d59982b3cULL, 0xd0d62c0206c722daULL},
                            Recorded{5, 16, 22, 0x80dddfa29bb37e87ULL, 0x418d4c898000b3e7ULL,
                                     0x7cdcb41a9b61cd57ULL, 0xaf7925d455d5b225ULL},
                            Recorded{1, 9000, 23, 0x0006cfa37ad422d6ULL, 0x5f23e859a5a91bd6ULL,
                                     0x79d1c9bc2ff925f2ULL, 0xee9f87abd34c1203ULL},
                            Recorded{7, 64, 24, 0x301ea3ae1fed0dfeULL, 0x228ebfae56097909ULL,
                                     0x9098ea04cb830ff0ULL, 0x7930b63408ad7069ULL}}) {
    SCOPED_TRACE(std::to_string(r.rows) + "x" + std::to_string(r.classes));
    const std::vector<float> x = softmax_input(r.rows * r.classes, r.seed);
    std::vector<float> y(x.size());
    detail::eigen_softmax(x.data(), r.rows, r.classes, false, y.data());
    EXPECT_EQ(fnv(y), r.softmax);
    detail::eigen_softmax(x.data(), r.rows, r.classes, true, y.data());
    EXPECT_EQ(fnv(y), r.log_softmax);
    const std::vector<double> xd(x.begin(), x.end());
    std::vector<double> yd(xd.size());
    detail::eigen_softmax(xd.data(), r.rows, r.classes, false, yd.data());
    EXPECT_EQ(fnv(yd), r.softmax64);
    detail::eigen_softmax(xd.data(), r.rows, r.classes, true, yd.data());
    EXPECT_EQ(fnv(yd), r.log_softmax64);
  }
}

TEST(SoftmaxOrderTest, KernelRunsTheKernelTfRunsHere) {
  // The op dispatches as TF does on this machine: oneDNN's float32 Softmax when TF uses oneDNN.
  const std::vector<float> x = softmax_input(3 * 37, 20);
  std::vector<float> want(x.size());
  if (tf_onednn_enabled()) {
    detail::onednn_softmax(x.data(), 3, 37, detail::onednn_softmax_isa(), want.data());
  } else {
    detail::eigen_softmax(x.data(), 3, 37, false, want.data());
  }
  EXPECT_EQ(values<float>(run1("Softmax", {f32(x, Shape({3, 37}))})), want);
}

TEST(SoftmaxOrderTest, RankErrorsAsTheKernelTfRunsHere) {
  // oneDNN's kernel takes ranks 1 to 5 (AbortedError); Eigen's any rank from 1.
  const Tensor scalar = Tensor::scalar(1.0f);
  if (tf_onednn_enabled()) {
    EXPECT_EQ(testing::error_of([&] { run1("Softmax", {scalar}); }, ErrorKind::kAborted),
              testing::eager_text("Softmax", "Input dims must be <= 5 and >=1"));
  } else {
    EXPECT_EQ(testing::error_of([&] { run1("Softmax", {scalar}); }, ErrorKind::kInvalidArgument),
              testing::eager_text("Softmax", "logits must have >= 1 dimension, got []"));
  }
  EXPECT_EQ(testing::error_of([&] { run1("LogSoftmax", {scalar}); }, ErrorKind::kInvalidArgument),
            testing::eager_text("LogSoftmax", "logits must have >= 1 dimension, got []"));
}

// ---- TF's integer errors ----

TEST(IntegerErrorsTest, DivisionByZero) {
  const Tensor x = testing::i32({7, -7}), z = testing::i32({2, 0});
  for (const char* op : {"FloorDiv", "FloorMod"}) {
    EXPECT_EQ(testing::error_of(
                  [&] {
                    run1(op, {x, z});
                  },
                  ErrorKind::kInvalidArgument),
              testing::eager_text(op, "Integer division by zero"));
  }
  for (const char* op : {"TruncateDiv", "TruncateMod"}) {
    EXPECT_EQ(testing::error_of(
                  [&] {
                    run1(op, {x, z});
                  },
                  ErrorKind::kInternal),
              testing::eager_text(op,
                                  "Unexpected error in binary operator (only integer div and "
                                  "mod should have errors)"));
  }
}

TEST(IntegerErrorsTest, NegativePowers) {
  EXPECT_EQ(testing::error_of(
                [&] {
                  run1("Pow", {testing::i32({2, 3}), testing::i32({2, -1})});
                },
                ErrorKind::kInvalidArgument),
            testing::eager_text("Pow", "Integers to negative integer powers are not allowed"));
  // Nonnegative powers wrap around: 3^40 mod 2^32 = 689956897, 2^31 = INT_MIN.
  EXPECT_EQ(
      values<int32_t>(run1("Pow", {testing::i32({3, 2, 0, -2}), testing::i32({40, 31, 0, 3})})),
      (std::vector<int32_t>{689956897, std::numeric_limits<int32_t>::min(), 1, -8}));
}

TEST(IntegerErrorsTest, MostNegativeByMinusOneWraps) {
  const Tensor m = testing::i32({std::numeric_limits<int32_t>::min()}), n = testing::i32({-1});
  EXPECT_EQ(values<int32_t>(run1("FloorDiv", {m, n}))[0], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(values<int32_t>(run1("FloorMod", {m, n}))[0], 0);
  EXPECT_EQ(values<int32_t>(run1("TruncateDiv", {m, n}))[0], std::numeric_limits<int32_t>::min());
  EXPECT_EQ(values<int32_t>(run1("TruncateMod", {m, n}))[0], 0);
}

TEST(IntegerErrorsTest, IntegerSumsWrapAround) {
  // 3 * 100 = 300 = 44 mod 256; 16 * 16 * 3 = 768 = 0 mod 256.
  EXPECT_EQ(values<int8_t>(sum(tensor<int8_t>({100, 100, 100}, Shape({3})), {0}))[0], 44);
  EXPECT_EQ(values<uint8_t>(sum(tensor<uint8_t>({16, 16, 3}, Shape({3})), {0}, "Prod"))[0], 0);
  // int32 Mean sums in 64 bits: (2^31 - 1 + 2^31 - 1) / 2.
  const int32_t big = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(values<int32_t>(sum(testing::i32({big, big}), {0}, "Mean"))[0], big);
}

}  // namespace
}  // namespace tfs
