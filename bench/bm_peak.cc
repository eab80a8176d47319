// The machine's multiply-add peak, and how close the GEMMs come to it.
//
// BM_PeakFma/<isa>: a register-only loop of independent fused multiply-adds (12 accumulator
//   vectors, more than latency x ports on any x86 core) on one core, isa 0 AVX2 (8 lanes), 1
//   AVX-512 (16 lanes) where the CPU has them; items_per_second = FMA lanes per CPU-second.
// BM_PeakVnni: the same with AVX-512 VNNI VPDPBUSD (int8 multiply-adds, 64 per instruction), the
//   peak of the hybrid TFLite kernel.
// BM_PeakAmx: AMX TDPBUSD on resident tiles (16384 int8 multiply-adds each), the peak of the
//   hybrid kernel's 16-row blocks where the CPU has AMX.
// BM_PeakAllCores/<isa>: the loop on every schedulable CPU at once (isa 2: VNNI, 3: AMX).
// All rates are per CPU-second (the thread's own time): on a shared machine the wall clock
// counts the time other processes ran.
// BM_GemmShare/<m>/<k>/<n>: src/ops' float32 MatMul kernel (gemm_f32, in TF's summation order,
//   on the intra-op pool: run with TF_NUM_INTRAOP_THREADS=1 or 2) on the MLP's products (784x256
//   at batch 1 and 64, ...), with counters: GFMA/s, and its share of this machine's one-core and
//   all-core FMA peak (the best instruction set's, measured at first use with the loop above; all
//   cores: every CPU running it at once), per wall second and per CPU second.
// BM_PoolRoundTrip: one parallel_for of empty tasks on the intra-op pool (a worker's wake-up).
// BM_LiteFcShare/<kind>/<batch>: tfscope's TFLite FULLY_CONNECTED kernels (lite_kernels.h) on the
//   784x256 layer, with the same counters (the hybrid kernel against the VNNI peak, or AMX's where
//   it runs AMX blocks).
// Nothing here asserts a time; `make bench` writes the JSON.
#include <benchmark/benchmark.h>
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <random>
#include <thread>
#include <vector>

#include "gemm_f32.h"  // src/ops: MatMul's float32 kernel
#include "tfscope/cpu_info.h"
#include "tfscope/lite.h"
#include "tfscope/lite_kernels.h"
#include "tfscope/thread_pool.h"

namespace {

constexpr int kAccumulators = 12;

// The loops are written in assembly, so that the twelve accumulators stay in registers (GCC
// keeps an array of vectors in memory) and nothing else runs: per iteration twelve independent
// multiply-adds into zmm0-11 / ymm0-11 from two zeroed operand registers (zeros run at full speed,
// and never become denormal).
#define TFS_TWELVE(op, r, a, b)                                                                    \
  op " %%" a ", %%" b ", %%" r "0\n\t" op " %%" a ", %%" b ", %%" r "1\n\t" op " %%" a ", %%" b    \
     ", %%" r "2\n\t" op " %%" a ", %%" b ", %%" r "3\n\t" op " %%" a ", %%" b ", %%" r "4\n\t" op \
     " %%" a ", %%" b ", %%" r "5\n\t" op " %%" a ", %%" b ", %%" r "6\n\t" op " %%" a ", %%" b    \
     ", %%" r "7\n\t" op " %%" a ", %%" b ", %%" r "8\n\t" op " %%" a ", %%" b ", %%" r "9\n\t" op \
     " %%" a ", %%" b ", %%" r "10\n\t" op " %%" a ", %%" b ", %%" r "11\n\t"

void fma_loop_avx2(int64_t iters) {
  __asm__ volatile(
      "vxorps %%ymm12, %%ymm12, %%ymm12\n\tvxorps %%ymm13, %%ymm13, %%ymm13\n\t"
      "1:\n\t" TFS_TWELVE("vfmadd231ps", "ymm", "ymm12", "ymm13") "dec %0\n\tjnz 1b\n\t"
      : "+r"(iters)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "cc");
}

void fma_loop_avx512(int64_t iters) {
  __asm__ volatile(
      "vxorps %%zmm12, %%zmm12, %%zmm12\n\tvxorps %%zmm13, %%zmm13, %%zmm13\n\t"
      "1:\n\t" TFS_TWELVE("vfmadd231ps", "zmm", "zmm12", "zmm13") "dec %0\n\tjnz 1b\n\t"
      : "+r"(iters)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "cc");
}

void vnni_loop(int64_t iters) {
  __asm__ volatile(
      "vpxord %%zmm12, %%zmm12, %%zmm12\n\tvpxord %%zmm13, %%zmm13, %%zmm13\n\t"
      "1:\n\t" TFS_TWELVE("vpdpbusd", "zmm", "zmm12", "zmm13") "dec %0\n\tjnz 1b\n\t"
      : "+r"(iters)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "cc");
}
#undef TFS_TWELVE

// AMX: four TDPBUSD per iteration into tiles 0-3 from tiles 4-7 (16 x 64 bytes each: 16384
// int8 multiply-adds per instruction), after the kernel grants the tile state.
struct alignas(64) TileConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {};
  uint8_t rows[16] = {};
};

bool amx_granted() {
  static const bool granted = syscall(SYS_arch_prctl, 0x1023, 18) == 0;  // XFEATURE_XTILEDATA
  return granted;
}

__attribute__((target("amx-tile,amx-int8"))) void amx_loop(int64_t iters) {
  TileConfig cfg;
  for (int t = 0; t < 8; ++t) {
    cfg.rows[t] = 16;
    cfg.colsb[t] = 64;
  }
  // GCC 12 models LDTILECFG as not reading the config: without this barrier it drops the
  // stores of rows and colsb (then TILEZERO faults).
  asm volatile("" : : "r"(&cfg) : "memory");
  _tile_loadconfig(&cfg);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_zero(4);
  _tile_zero(5);
  _tile_zero(6);
  _tile_zero(7);
  for (int64_t i = 0; i < iters; ++i) {
    _tile_dpbusd(0, 4, 5);
    _tile_dpbusd(1, 4, 6);
    _tile_dpbusd(2, 7, 5);
    _tile_dpbusd(3, 7, 6);
  }
  _tile_release();
}

enum Peak { kAvx2 = 0, kAvx512 = 1, kVnni = 2, kAmx = 3 };

bool has(Peak p) {
  const tfs::CpuInfo& c = tfs::cpu_info();
  if (p == kAvx2) return c.avx2 && c.fma;
  if (p == kAvx512) return c.avx512f;
  if (p == kAmx) return c.amx_tile && c.amx_int8 && amx_granted();
  return c.avx512f && c.avx512_vnni;
}

// Multiply-adds per loop iteration.
int64_t lanes_per_iter(Peak p) {
  if (p == kAmx) return 4 * 16384 / 64;  // run_loop runs iters / 64 AMX iterations
  return kAccumulators * (p == kAvx2 ? 8 : p == kAvx512 ? 16 : 64);
}

void run_loop(Peak p, int64_t iters) {
  if (p == kAvx2) return fma_loop_avx2(iters);
  if (p == kAvx512) return fma_loop_avx512(iters);
  if (p == kAmx) return amx_loop(iters / 64);
  return vnni_loop(iters);
}

// CPU time of the calling thread: on a shared machine the loop's own time, not the wall's.
double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Multiply-adds per CPU-second of `threads` copies of the loop running at once, summed over the
// threads; best of five runs of a few milliseconds each.
double measure_peak(Peak p, int threads) {
  constexpr int64_t kIters = 1 << 21;
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    std::vector<double> rate(static_cast<size_t>(threads));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([p, &rate, t] {
        const double t0 = thread_seconds();
        run_loop(p, kIters);
        rate[static_cast<size_t>(t)] =
            static_cast<double>(kIters * lanes_per_iter(p)) / (thread_seconds() - t0);
      });
    }
    for (auto& t : pool) t.join();
    double sum = 0;
    for (double r : rate) sum += r;
    best = std::max(best, sum);
  }
  return best;
}

void BM_PeakFma(benchmark::State& state) {
  const Peak p = static_cast<Peak>(state.range(0));
  if (!has(p)) {
    state.SkipWithError("this CPU lacks the instruction set");
    return;
  }
  constexpr int64_t kIters = 1 << 16;
  for (auto _ : state) run_loop(p, kIters);
  state.SetItemsProcessed(state.iterations() * kIters * lanes_per_iter(p));
}
BENCHMARK(BM_PeakFma)->ArgName("isa")->Arg(kAvx2)->Arg(kAvx512);
BENCHMARK(BM_PeakFma)->Name("BM_PeakVnni")->Arg(kVnni);
BENCHMARK(BM_PeakFma)->Name("BM_PeakAmx")->Arg(kAmx);

// The loop on every schedulable CPU at once (each thread's multiply-adds per second of its own
// CPU time, summed): counters GFMA/s and cores.
void BM_PeakAllCores(benchmark::State& state) {
  const Peak p = static_cast<Peak>(state.range(0));
  if (!has(p)) {
    state.SkipWithError("this CPU lacks the instruction set");
    return;
  }
  const int cores = tfs::cpu_info().schedulable_cpus;
  double rate = 0;
  for (auto _ : state) rate = std::max(rate, measure_peak(p, cores));
  state.counters["GFMA/s"] = rate * 1e-9;
  state.counters["cores"] = cores;
}
BENCHMARK(BM_PeakAllCores)
    ->ArgName("isa")
    ->Arg(kAvx2)
    ->Arg(kAvx512)
    ->Arg(kVnni)
    ->Arg(kAmx)
    ->Iterations(1);

struct Peaks {
  double core = 0, all = 0;  // multiply-adds per second
  int cores = 1;
};

// The machine's float FMA peak: AVX-512 where present, else AVX2.
const Peaks& fma_peak() {
  static const Peaks p = [] {
    Peaks r;
    const Peak best = has(kAvx512) ? kAvx512 : kAvx2;
    r.cores = tfs::cpu_info().schedulable_cpus;
    if (has(best)) {
      r.core = measure_peak(best, 1);
      r.all = measure_peak(best, r.cores);
    }
    return r;
  }();
  return p;
}

const Peaks& vnni_peak() {
  static const Peaks p = [] {
    Peaks r;
    r.cores = tfs::cpu_info().schedulable_cpus;
    if (has(kVnni)) {
      r.core = measure_peak(kVnni, 1);
      r.all = measure_peak(kVnni, r.cores);
    }
    return r;
  }();
  return p;
}

const Peaks& amx_peak() {
  static const Peaks p = [] {
    Peaks r;
    r.cores = tfs::cpu_info().schedulable_cpus;
    if (has(kAmx)) {
      r.core = measure_peak(kAmx, 1);
      r.all = measure_peak(kAmx, r.cores);
    }
    return r;
  }();
  return p;
}

void set_share(benchmark::State& state, double macs_per_iter, const Peaks& peak) {
  state.counters["GFMA/s"] =
      benchmark::Counter(macs_per_iter * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  if (peak.core > 0) {
    state.counters["share_of_core_peak"] = benchmark::Counter(
        macs_per_iter / peak.core, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["share_of_all_core_peak"] =
        benchmark::Counter(macs_per_iter / peak.all, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["core_peak_GFMA/s"] = peak.core * 1e-9;
    state.counters["all_core_peak_GFMA/s"] = peak.all * 1e-9;
    state.counters["cores"] = peak.cores;
  }
}

std::vector<float> uniform(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Runs on the intra-op pool (tfscope/thread_pool.h: TF_NUM_INTRAOP_THREADS sets its size), so
// the times are wall-clock (UseRealTime): GFMA/s and the shares are per second of wall time,
// which on a shared machine counts other processes' time too. GFMA/cpu_s is per second of this
// process's CPU time (every thread's); cpu_share_of_all_core_peak = GFMA/cpu_s * threads / the
// all-core peak, what the wall-clock share would be with the threads running at once and never
// waiting (a bound: waiting costs no CPU time).
void BM_GemmShare(benchmark::State& state) {
  const int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  const std::vector<float> a = uniform(static_cast<size_t>(m * k), 1);
  const std::vector<float> b = uniform(static_cast<size_t>(k * n), 2);
  std::vector<float> c(static_cast<size_t>(m * n));
  const auto order = tfs::detail::tf_matmul_order(m, k, n, false, false);
  const int threads = tfs::intra_op_pool().num_threads();
  const double cpu0 = process_cpu_seconds();
  double fastest = 1e30;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    tfs::detail::gemm_f32(a.data(), false, b.data(), false, m, k, n, order, c.data());
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
    fastest = std::min(
        fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double cpu = process_cpu_seconds() - cpu0;
  const double macs = static_cast<double>(m * k * n);
  set_share(state, macs, fma_peak());
  // The fastest call, measured as the peak is (the best of its runs): on a shared machine the
  // call that no other process interrupted.
  state.counters["fastest_us"] = fastest * 1e6;
  state.counters["fastest_GFMA/s"] = macs / fastest * 1e-9;
  if (fma_peak().all > 0) {
    state.counters["fastest_share_of_core_peak"] = macs / fastest / fma_peak().core;
    state.counters["fastest_share_of_all_core_peak"] = macs / fastest / fma_peak().all;
  }
  state.counters["threads"] = threads;
  if (cpu > 0) {
    const double per_cpu_s = macs * static_cast<double>(state.iterations()) / cpu;
    state.counters["GFMA/cpu_s"] = per_cpu_s * 1e-9;
    if (fma_peak().all > 0)
      state.counters["cpu_share_of_all_core_peak"] = per_cpu_s * threads / fma_peak().all;
  }
}
// The MLP 784-256-128-10's three products at batch 64 and 1.
BENCHMARK(BM_GemmShare)
    ->ArgNames({"m", "k", "n"})
    ->Args({64, 784, 256})
    ->Args({64, 256, 128})
    ->Args({64, 128, 10})
    ->Args({1, 784, 256})
    ->Args({256, 784, 256})
    ->UseRealTime();

// What handing work to the intra-op pool costs: one parallel_for of one empty task per thread
// (the caller's and a worker's wake-up, run and join), the price an executor would pay to run
// an independent node on another thread.
void BM_PoolRoundTrip(benchmark::State& state) {
  tfs::ThreadPool& pool = tfs::intra_op_pool();
  std::atomic<int64_t> sink{0};
  for (auto _ : state) {
    pool.parallel_for(pool.num_threads(), [&](int64_t i) { sink.fetch_add(i); });
  }
  benchmark::DoNotOptimize(sink.load());
  state.counters["threads"] = pool.num_threads();
}
BENCHMARK(BM_PoolRoundTrip)->UseRealTime();

void BM_LiteFcShare(benchmark::State& state) {
  using tfs::lite::kernels::PreparedFc;
  const int kind = static_cast<int>(state.range(0)), batch = static_cast<int>(state.range(1));
  constexpr int kUnits = 256, kDepth = 784;
  const std::vector<float> w = uniform(size_t{kUnits} * kDepth, 1);
  const std::vector<float> in = uniform(static_cast<size_t>(batch) * kDepth, 2);
  std::vector<float> out(static_cast<size_t>(batch) * kUnits);
  const auto q = tfs::lite::quantize_per_channel(w.data(), kUnits, kDepth);
  PreparedFc fc = kind == 2 ? PreparedFc::hybrid_weights(q.values.data(), kUnits, kDepth, q.scales)
                            : PreparedFc::float_weights(w.data(), kUnits, kDepth, kind == 1);
  tfs::lite::kernels::FcScratch scratch;
  fc.reserve(batch, scratch);
  for (auto _ : state) {
    fc.run(in.data(), batch, nullptr, tfs::lite::kernels::Activation::kNone, true, out.data(),
           scratch);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  const bool amx = fc.isa() == tfs::lite::kernels::Isa::kAmx && batch >= 16;
  set_share(state, static_cast<double>(batch) * kUnits * kDepth,
            kind != 2 ? fma_peak()
            : amx     ? amx_peak()
                      : vnni_peak());
  state.SetLabel(std::string(kind == 0   ? "float exact"
                             : kind == 1 ? "float fused"
                                         : "hybrid") +
                 ", " + tfs::lite::kernels::isa_name(fc.isa()));
}
BENCHMARK(BM_LiteFcShare)->ArgNames({"kind", "batch"})->ArgsProduct({{0, 1, 2}, {1, 64}});

}  // namespace

BENCHMARK_MAIN();
