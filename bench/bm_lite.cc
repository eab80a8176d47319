// tfscope's TFLite interpreter and its FULLY_CONNECTED kernels, in C++ (bench/lite_vs_litert.py
// times the same from Python beside LiteRT).
//
// BM_LiteInvoke/<model>/<kernels>/<batch>: one invoke of the 784-256-128-10 MLP (relu, relu,
//   linear), converted by tfscope; model 0 float, 1 dynamic-range int8 (all three layers hybrid);
//   kernels 0 kReference (bit-exact with LiteRT BUILTIN_REF), 1 kFast. Inputs written in place,
//   nothing copied out.
// BM_LiteRunCopying/<model>/<batch>: the same through Interpreter::run (inputs and outputs as
//   vectors, copied), kReference: what the Python binding did before invoke().
// BM_LiteFc<kind>/<isa>/<batch>: the 784x256 layer alone on one instruction set (0 scalar, 1 AVX2,
//   2 AVX-512, 3 AMX (hybrid only: float runs AVX-512); skipped where the CPU lacks it): Float
//   (exact), FloatFused, Hybrid (asymmetric). Items are multiply-adds, so items_per_second is
//   MAC/s.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/lite.h"
#include "tfscope/lite_kernels.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace {

using namespace tfs::lite;
using tfs::Tensor;

std::vector<float> normal(size_t n, uint32_t seed, float stddev) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> nd(0.0f, stddev);
  std::vector<float> v(n);
  for (auto& x : v) x = nd(rng);
  return v;
}

std::string mlp_model(bool dynamic_range) {
  const int dims[] = {784, 256, 128, 10};
  std::vector<std::shared_ptr<tfs::Variable>> w, b;
  for (int l = 0; l < 3; ++l) {
    w.push_back(std::make_shared<tfs::Variable>(
        Tensor::from_vector(normal(size_t(dims[l]) * dims[l + 1], 10 + l, 0.05f),
                            tfs::Shape{dims[l], dims[l + 1]}),
        "w" + std::to_string(l)));
    b.push_back(std::make_shared<tfs::Variable>(
        Tensor::from_vector(normal(size_t(dims[l + 1]), 20 + l, 0.05f), tfs::Shape{dims[l + 1]}),
        "b" + std::to_string(l)));
  }
  tfs::FunctionOptions opts;
  opts.input_signature = std::vector<tfs::Value>{
      tfs::TensorSpec(tfs::PartialShape{-1, 784}, tfs::DType::kFloat32, "x")};
  auto fn = tfs::function(
      "mlp", {"x"},
      [w, b](Tensor x) {
        Tensor h = tfs::relu(tfs::matmul(x, w[0]->read_value()) + tfs::Value(b[0]->read_value()));
        h = tfs::relu(tfs::matmul(h, w[1]->read_value()) + tfs::Value(b[1]->read_value()));
        return tfs::matmul(h, w[2]->read_value()) + tfs::Value(b[2]->read_value());
      },
      opts);
  ConvertOptions c;
  c.dynamic_range = dynamic_range;
  return convert(*fn->get_concrete_function(), c);
}

const std::string& model(int which) {
  static const std::string float_model = mlp_model(false), int8_model = mlp_model(true);
  return which ? int8_model : float_model;
}

void BM_LiteInvoke(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(2));
  Interpreter interp(ModelFile(model(static_cast<int>(state.range(0))), "mlp.tflite"),
                     state.range(1) ? Kernels::kFast : Kernels::kReference);
  interp.resize_input(0, {batch, 784});
  const std::vector<float> x = normal(size_t(batch) * 784, 7, 1.0f);
  for (auto _ : state) {
    std::copy(x.begin(), x.end(), interp.input_data(0));
    interp.invoke();
    benchmark::DoNotOptimize(interp.output(0).data.data());
  }
}
BENCHMARK(BM_LiteInvoke)
    ->ArgNames({"int8", "fast", "batch"})
    ->ArgsProduct({{0, 1}, {0, 1}, {1, 64}});

void BM_LiteRunCopying(benchmark::State& state) {
  const int batch = static_cast<int>(state.range(1));
  Interpreter interp(ModelFile(model(static_cast<int>(state.range(0))), "mlp.tflite"));
  const std::vector<Interpreter::TensorValue> in{{{batch, 784}, normal(size_t(batch) * 784, 7, 1)}};
  for (auto _ : state) benchmark::DoNotOptimize(interp.run(in));
}
BENCHMARK(BM_LiteRunCopying)->ArgNames({"int8", "batch"})->ArgsProduct({{0, 1}, {1, 64}});

constexpr int kUnits = 256, kDepth = 784;

enum class Kind { kFloat, kFloatFused, kHybrid };

template <Kind kKind>
void BM_LiteFc(benchmark::State& state) {
  const auto isa = static_cast<kernels::Isa>(state.range(0));
  if (!kernels::isa_supported(isa)) {
    state.SkipWithError("this CPU lacks the instruction set");
    return;
  }
  const int batch = static_cast<int>(state.range(1));
  const std::vector<float> w = normal(size_t(kUnits) * kDepth, 1, 0.05f);
  const std::vector<float> bias = normal(kUnits, 2, 0.05f);
  const std::vector<float> in = normal(size_t(batch) * kDepth, 3, 1.0f);
  std::vector<float> out(size_t(batch) * kUnits);
  const QuantizedWeights q = quantize_per_channel(w.data(), kUnits, kDepth);
  kernels::PreparedFc fc =
      kKind == Kind::kHybrid
          ? kernels::PreparedFc::hybrid_weights(q.values.data(), kUnits, kDepth, q.scales, isa)
          : kernels::PreparedFc::float_weights(w.data(), kUnits, kDepth, kKind == Kind::kFloatFused,
                                               isa);
  kernels::FcScratch scratch;
  fc.reserve(batch, scratch);
  for (auto _ : state) {
    fc.run(in.data(), batch, bias.data(), kernels::Activation::kRelu, true, out.data(), scratch);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * batch * int64_t{kUnits} * kDepth);
}
BENCHMARK(BM_LiteFc<Kind::kFloat>)
    ->Name("BM_LiteFcFloat")
    ->ArgNames({"isa", "batch"})
    ->ArgsProduct({{0, 1, 2}, {1, 64}});
BENCHMARK(BM_LiteFc<Kind::kFloatFused>)
    ->Name("BM_LiteFcFloatFused")
    ->ArgNames({"isa", "batch"})
    ->ArgsProduct({{0, 1, 2}, {1, 64}});
BENCHMARK(BM_LiteFc<Kind::kHybrid>)
    ->Name("BM_LiteFcHybrid")
    ->ArgNames({"isa", "batch"})
    ->ArgsProduct({{0, 1, 2, 3}, {1, 64}});

}  // namespace

BENCHMARK_MAIN();
