// Per-call costs of bm_function's call benchmarks that do not depend on the machine's load: heap
// allocations (counted here, by replacing malloc) and, when run under valgrind's callgrind,
// instructions (one profile dump per case, made around exactly the measured calls):
//   build/bench/instr_function                    # allocations per call
//   bench/function_instructions.sh                # instructions too (runs callgrind)
// Each case is traced and warmed up first, so its plan is compiled and its buffers are sized.
#include <malloc.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "mlp_fixture.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#define CALLGRIND_DUMP_STATS_AT(name) (void)(name)
#endif

// glibc's allocator under its internal names: the replacements below count, then forward.
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}

namespace {
std::atomic<long> g_allocs{0};
}

extern "C" {
void* malloc(size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t m) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_calloc(n, m);
}
void* realloc(void* p, size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_realloc(p, n);
}
void* memalign(size_t a, size_t n) {
  g_allocs.fetch_add(1, std::memory_order_relaxed);
  return __libc_memalign(a, n);
}
void* aligned_alloc(size_t a, size_t n) {
  return memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  *out = memalign(a, n);
  return *out ? 0 : ENOMEM;
}
void free(void* p) {
  __libc_free(p);
}
}

namespace {

using tfs::Tensor;
using tfs::Value;

constexpr int kWarmup = 200;
constexpr int kCalls = 2000;

// Runs `call` `calls` times between two callgrind toggles and reports allocations per call.
void measure(const char* name, const std::function<void()>& call, int calls = kCalls) {
  for (int i = 0; i < kWarmup; ++i) call();
  long before = g_allocs.load();
  CALLGRIND_TOGGLE_COLLECT;
  for (int i = 0; i < calls; ++i) call();
  CALLGRIND_TOGGLE_COLLECT;
  long after = g_allocs.load();
  CALLGRIND_DUMP_STATS_AT(name);
  std::printf("%-28s %6.2f allocations per call (%d calls)\n", name,
              static_cast<double>(after - before) / calls, calls);
}

}  // namespace

int main() {
  tfs::set_warning_sink([](const std::string&) {});
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4});
  // The benchmarks' argument vectors, built once: what is counted is the call alone.
  const std::vector<Value> args{Value(x)};
  {
    auto f = tfs::function("tiny", {"x"}, [](Tensor x) { return tfs::multiply(x, Value(2.0)); });
    f->call(args);
    measure("BM_CallCacheHit", [&] { f->call(args); });
  }
  {
    auto inner =
        tfs::function("tiny_inner", {"x"}, [](Tensor x) { return tfs::multiply(x, Value(2.0)); });
    auto outer = tfs::function("tiny_outer", {"x"}, [inner](Tensor x) {
      return tfs::add(inner->call({x}).as_tensor(), Value(1.0));
    });
    outer->call(args);
    measure("BM_NestedCallHit", [&] { outer->call(args); });
  }
  {
    auto f = tfs::function("tiny_flat", {"x"}, [](Tensor x) {
      return tfs::add(tfs::multiply(x, Value(2.0)), Value(1.0));
    });
    f->call(args);
    measure("BM_CallCacheHitFlat", [&] { f->call(args); });
  }
  {
    auto f =
        tfs::function("tiny", {"x", "k"}, [](Tensor x, Value k) { return tfs::multiply(x, k); });
    for (int k = 0; k < 1000; ++k) f->call({x, Value(static_cast<int64_t>(k))});
    const std::vector<Value> hit{Value(x), Value(int64_t{999})};
    measure("BM_CacheLookupManyEntries", [&] { f->call(hit); });
  }
  {
    auto f = tfs::function("tiny_one", {"x", "k"},
                           [](Tensor x, Value k) { return tfs::multiply(x, k); });
    const std::vector<Value> hit{Value(x), Value(int64_t{999})};
    f->call(hit);
    measure("BM_CacheLookupOneEntryTwoArgs", [&] { f->call(hit); });
  }
  {
    Tensor a = Tensor::from_vector<float>({1, 2});
    measure("BM_EagerAddSmall", [&] { (void)tfs::add(a, a); });
  }
  {
    // BM_MlpForward/1 against its kernels alone: the executor's instructions per call.
    tfs::bench::MlpFunction m(1);
    measure("BM_MlpForward/1", [&] { (void)m.cf->run_flat(m.flat); }, 500);
    tfs::bench::MlpKernels k(1);
    measure("BM_MlpKernelsOnly/1", [&] { (void)k.run(); }, 500);
  }
  return 0;
}
