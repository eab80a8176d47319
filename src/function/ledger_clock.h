// The clock of the ledger's per-call run times. A hit reads it twice, and steady_clock (a vDSO
// clock_gettime) was the largest single cost of a cache hit, so on x86-64 with an invariant TSC
// the ledger counts TSC ticks and converts them to nanoseconds when it is read, with the rate
// between the TSC and steady_clock measured from the first tick to that read. Elsewhere the ticks
// are steady_clock nanoseconds.
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace tfs::detail {

class LedgerClock {
 public:
  static int64_t now() {
#if defined(__x86_64__)
    if (origin().tsc_ok) return static_cast<int64_t>(__rdtsc());
#endif
    return steady_ns();
  }

  // Ticks (a difference of two now()) in nanoseconds.
  static double to_ns(int64_t ticks) {
    const Origin& o = origin();
    if (!o.tsc_ok) return static_cast<double>(ticks);
#if defined(__x86_64__)
    double ns = static_cast<double>(steady_ns() - o.ns);
    double elapsed = static_cast<double>(static_cast<int64_t>(__rdtsc()) - o.tsc);
    if (ns > 0 && elapsed > 0) return static_cast<double>(ticks) * ns / elapsed;
#endif
    return 0;
  }

 private:
  struct Origin {
    bool tsc_ok = false;
    int64_t tsc = 0;
    int64_t ns = 0;
  };

  static int64_t steady_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  static const Origin& origin() {
    static const Origin o = [] {
      Origin r;
#if defined(__x86_64__)
      unsigned a = 0, b = 0, c = 0, d = 0;
      // CPUID 0x80000007 EDX bit 8: the TSC runs at a constant rate in every power state.
      if (__get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) {
        r.tsc_ok = true;
        r.tsc = static_cast<int64_t>(__rdtsc());
      }
#endif
      r.ns = steady_ns();
      return r;
    }();
    return o;
  }
};

}  // namespace tfs::detail
