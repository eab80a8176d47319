// FULLY_CONNECTED with 1024x1024 weights, tfscope's fast kernels: float (Eigen) against hybrid
// (int8 weights, per-row int8 inputs, SIMD integer dots). The design budget: hybrid faster than
// float at batch 1; the goal 1.5x. Arg = batch.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tfscope/lite.h"
#include "tfscope/lite_kernels.h"

namespace {

using namespace tfs::lite;

constexpr int kUnits = 1024;
constexpr int kDepth = 1024;

struct Data {
  std::vector<float> w, bias, in, out;
  QuantizedWeights q;
  kernels::HybridWeights hw;
  explicit Data(int batch) {
    std::mt19937 rng(1);
    std::normal_distribution<float> nd(0.0f, 0.05f);
    w.resize(size_t{kUnits} * kDepth);
    for (auto& v : w) v = nd(rng);
    bias.resize(kUnits);
    for (auto& v : bias) v = nd(rng);
    in.resize(size_t(batch) * kDepth);
    for (auto& v : in) v = nd(rng) * 20.0f;
    out.resize(size_t(batch) * kUnits);
    q = quantize_per_channel(w.data(), kUnits, kDepth);
    hw.w = q.values.data();
    hw.units = kUnits;
    hw.depth = kDepth;
    hw.scales = q.scales;
    hw.prepare();
  }
};

void BM_FullyConnectedFloat(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  Data d(batch);
  for (auto _ : state) {
    kernels::fully_connected_float_fast(d.in.data(), batch, kDepth, d.w.data(), kUnits,
                                        d.bias.data(), kernels::Activation::kRelu, d.out.data());
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * batch * int64_t{kUnits} * kDepth);
}

void BM_FullyConnectedHybrid(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(0));
  Data d(batch);
  std::vector<int8_t> scratch;
  for (auto _ : state) {
    kernels::fully_connected_hybrid_fast(d.in.data(), batch, d.hw, d.bias.data(),
                                         kernels::Activation::kRelu, true, d.out.data(), scratch);
    benchmark::DoNotOptimize(d.out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * batch * int64_t{kUnits} * kDepth);
}

BENCHMARK(BM_FullyConnectedFloat)->Arg(1)->Arg(16);
BENCHMARK(BM_FullyConnectedHybrid)->Arg(1)->Arg(16);

}  // namespace

BENCHMARK_MAIN();
