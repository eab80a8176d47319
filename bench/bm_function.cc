// Benchmarks of the function engine against DESIGN.md's budgets: a cache-hit call of a tiny
// function (<= 0.5 us, flat in the number of cached traces), a nested call (outer calling inner,
// within 1.5x of a flat one), a trace whose cost does not grow with the cache, a 10-op trace,
// and an MLP forward in a ConcreteFunction against the bare GEMM kernels it runs (within
// 1.25x), with the same MLP in bare Eigen beside them.
// Numbers come from `make bench` (build/bench/bm_function.json); nothing here asserts a time.
#include <benchmark/benchmark.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>

#include "mlp_fixture.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/ops_loss.h"
#include "tfscope/tape.h"
#include "tfscope/variable.h"

namespace {

using tfs::Tensor;
using tfs::Value;
using tfs::bench::Mlp;
using tfs::bench::MlpFunction;
using tfs::bench::MlpKernels;
using tfs::bench::random_matrix;

// The 64-literal cache benchmark retraces on purpose; keep TF's warning out of the output.
const bool kQuietWarnings = [] {
  tfs::set_warning_sink([](const std::string&) {});
  return true;
}();

void BM_EagerAddSmall(benchmark::State& state) {
  Tensor a = Tensor::from_vector<float>({1, 2});  // eager AddV2 of two 2-element tensors
  for (auto _ : state) benchmark::DoNotOptimize(tfs::add(a, a));
}
BENCHMARK(BM_EagerAddSmall);

void BM_CallCacheHit(benchmark::State& state) {
  auto f = tfs::function("tiny", {"x"}, [](Tensor x) { return tfs::multiply(x, Value(2.0)); });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  f->call({x});  // trace once
  for (auto _ : state) benchmark::DoNotOptimize(f->call({x}));
}
BENCHMARK(BM_CallCacheHit);

void BM_NestedCallHit(benchmark::State& state) {
  // outer(x) = inner(x) + 1, inner(x) = x * 2, both traced: a hit of outer runs its plan, whose
  // PartitionedCall runs inner's plan compiled with it.
  auto inner =
      tfs::function("tiny_inner", {"x"}, [](Tensor x) { return tfs::multiply(x, Value(2.0)); });
  auto outer = tfs::function("tiny_outer", {"x"}, [inner](Tensor x) {
    return tfs::add(inner->call({x}).as_tensor(), Value(1.0));
  });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  outer->call({x});  // trace both once
  for (auto _ : state) benchmark::DoNotOptimize(outer->call({x}));
}
BENCHMARK(BM_NestedCallHit);

void BM_CallCacheHitFlat(benchmark::State& state) {
  // The same arithmetic as BM_NestedCallHit in one function: what the call node adds.
  auto f = tfs::function("tiny_flat", {"x"}, [](Tensor x) {
    return tfs::add(tfs::multiply(x, Value(2.0)), Value(1.0));
  });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  f->call({x});
  for (auto _ : state) benchmark::DoNotOptimize(f->call({x}));
}
BENCHMARK(BM_CallCacheHitFlat);

void BM_CacheLookupManyEntries(benchmark::State& state) {
  // 1000 cached traces (one per Python literal, DESIGN.md's budget: within 1.1x of one entry);
  // the call hits the last one.
  auto f = tfs::function("tiny", {"x", "k"}, [](Tensor x, Value k) { return tfs::multiply(x, k); });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  for (int k = 0; k < 1000; ++k) f->call({x, Value(static_cast<int64_t>(k))});
  for (auto _ : state) benchmark::DoNotOptimize(f->call({x, Value(int64_t{999})}));
}
BENCHMARK(BM_CacheLookupManyEntries);

void BM_CacheLookupOneEntryTwoArgs(benchmark::State& state) {
  // The same call as BM_CacheLookupManyEntries with one trace cached: the fair "one entry".
  auto f =
      tfs::function("tiny_one", {"x", "k"}, [](Tensor x, Value k) { return tfs::multiply(x, k); });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  f->call({x, Value(int64_t{999})});
  for (auto _ : state) benchmark::DoNotOptimize(f->call({x, Value(int64_t{999})}));
}
BENCHMARK(BM_CacheLookupOneEntryTwoArgs);

void BM_TraceWithManyCached(benchmark::State& state) {
  // A trace (a new literal) with N traces already cached: constant in N (issue 12: the cost of
  // a trace must not grow with the number of cached traces).
  auto f =
      tfs::function("tiny_many", {"x", "k"}, [](Tensor x, Value k) { return tfs::multiply(x, k); });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  int64_t k = 0;
  for (; k < state.range(0); ++k) f->call({x, Value(k)});
  for (auto _ : state) benchmark::DoNotOptimize(f->call({x, Value(k++)}));
}
BENCHMARK(BM_TraceWithManyCached)->Arg(10)->Arg(10000);

void BM_Trace10Ops(benchmark::State& state) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  for (auto _ : state) {
    auto f = tfs::function("ten_ops", {"x"}, [](Tensor x) {
      Tensor y = x;
      for (int i = 0; i < 10; ++i) y = tfs::add(y, Value(1.0));  // 10 AddV2 (+ their Consts)
      return y;
    });
    benchmark::DoNotOptimize(f->get_concrete_function({x}));
  }
}
BENCHMARK(BM_Trace10Ops);

void BM_MlpForward(benchmark::State& state) {
  MlpFunction m(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(m.cf->run_flat(m.flat));
}
BENCHMARK(BM_MlpForward)->Arg(1)->Arg(64);

// The MLP's training step as one tf.function: forward, sparse softmax cross-entropy, the tape's
// backward pass and SGD by assign_sub (bench/train_vs_tf.py times the same step from Python
// beside TF).
void BM_TrainStepMlp(benchmark::State& state) {
  Mlp m;
  std::vector<tfs::Variable> p = {
      tfs::Variable(Value(m.w1), "w1"), tfs::Variable(Value(m.b1), "b1"),
      tfs::Variable(Value(m.w2), "w2"), tfs::Variable(Value(m.b2), "b2"),
      tfs::Variable(Value(m.w3), "w3"), tfs::Variable(Value(m.b3), "b3")};
  auto f = tfs::function("train_step", {"x", "y"}, [&](Tensor x, Tensor y) {
    tfs::GradientTape tape;
    tape.enter();
    Tensor h = tfs::relu(tfs::bias_add(tfs::matmul(x, p[0].read_value()), p[1].read_value()));
    h = tfs::relu(tfs::bias_add(tfs::matmul(h, p[2].read_value()), p[3].read_value()));
    Tensor logits = tfs::bias_add(tfs::matmul(h, p[4].read_value()), p[5].read_value());
    Tensor loss = tfs::reduce_mean(tfs::sparse_softmax_cross_entropy_with_logits(y, logits));
    tape.exit();
    std::vector<tfs::TapeOperand> sources;
    for (auto& v : p) sources.emplace_back(v.state());
    std::vector<Tensor> g = tape.gradient({loss}, sources);
    for (size_t i = 0; i < p.size(); ++i) p[i].assign_sub(Value(tfs::multiply(Value(0.01), g[i])));
    return loss;
  });
  const int64_t batch = state.range(0);
  Tensor x = random_matrix(batch, 784, 7);
  std::vector<int32_t> labels(static_cast<size_t>(batch));
  for (int64_t i = 0; i < batch; ++i) labels[static_cast<size_t>(i)] = static_cast<int32_t>(i % 10);
  Tensor y = Tensor::from_vector<int32_t>(labels);
  auto cf = f->get_concrete_function({x, y});
  std::vector<Tensor> flat{x, y};
  for (auto _ : state) benchmark::DoNotOptimize(cf->run_flat(flat));
}
BENCHMARK(BM_TrainStepMlp)->Arg(1)->Arg(64);

// The kernels BM_MlpForward runs, called directly: its floor, without the executor
// (bench/mlp_fixture.h).
void BM_MlpKernelsOnly(benchmark::State& state) {
  MlpKernels k(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(k.run());
}
BENCHMARK(BM_MlpKernelsOnly)->Arg(1)->Arg(64);

// The same arithmetic as bare Eigen (row-major GEMMs, bias, relu), as this build compiles Eigen
// (no -march flags: SSE2 packets). tfscope's float32 MatMul used Eigen's GEMM until it took TF's
// summation order; kept for that comparison.
void BM_MlpEigenOnly(benchmark::State& state) {
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using V = Eigen::Matrix<float, 1, Eigen::Dynamic>;
  Mlp m;
  auto mat = [](const Tensor& t, int64_t r, int64_t c) {
    return M(Eigen::Map<const M>(t.data<float>(), r, c));
  };
  M w1 = mat(m.w1, 784, 256), w2 = mat(m.w2, 256, 128), w3 = mat(m.w3, 128, 10);
  V b1 = mat(m.b1, 1, 256), b2 = mat(m.b2, 1, 128), b3 = mat(m.b3, 1, 10);
  M x = mat(random_matrix(state.range(0), 784, 7), state.range(0), 784);
  for (auto _ : state) {
    M h1 = ((x * w1).rowwise() + b1).cwiseMax(0.0f);
    M h2 = ((h1 * w2).rowwise() + b2).cwiseMax(0.0f);
    M y = (h2 * w3).rowwise() + b3;
    benchmark::DoNotOptimize(y.data());
  }
}
BENCHMARK(BM_MlpEigenOnly)->Arg(1)->Arg(64);

}  // namespace

BENCHMARK_MAIN();
