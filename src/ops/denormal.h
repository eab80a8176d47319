// TF's ScopedFlushDenormal: every TF 2.21 kernel runs with the CPU flushing denormal results to
// zero and reading denormal operands as zero (MXCSR FTZ and DAZ on x86, FPCR FZ on Arm), eagerly
// and in graphs, so `1e-39 * 1.0` is 0 there and `log` of a denormal is log(0) on packets. The
// op registry runs every kernel under this guard (registry.cc), and a graph plan holds one around all
// its steps (src/graph/executor.cc), so each kernel's float steps see denormals exactly as TF's
// do. Internal to the ops and graph layers.
#pragma once

#include <cstdint>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

namespace tfs::detail {

class ScopedFlushDenormal {
 public:
  ScopedFlushDenormal() {
#if defined(__x86_64__) || defined(_M_X64)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | kFtz | kDaz);
#elif defined(__aarch64__)
    uint64_t fpcr = 0;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    saved_ = fpcr;
    fpcr |= kFz;
    __asm__ __volatile__("msr fpcr, %0" : : "r"(fpcr));
#endif
  }
  ~ScopedFlushDenormal() {
#if defined(__x86_64__) || defined(_M_X64)
    _mm_setcsr(static_cast<unsigned>(saved_));
#elif defined(__aarch64__)
    __asm__ __volatile__("msr fpcr, %0" : : "r"(saved_));
#endif
  }
  ScopedFlushDenormal(const ScopedFlushDenormal&) = delete;
  ScopedFlushDenormal& operator=(const ScopedFlushDenormal&) = delete;

 private:
  static constexpr uint64_t kFtz = 1u << 15;  // MXCSR flush-to-zero
  static constexpr uint64_t kDaz = 1u << 6;   // MXCSR denormals-are-zero
  static constexpr uint64_t kFz = 1u << 24;   // FPCR flush-to-zero (inputs and results)
  uint64_t saved_ = 0;
};

}  // namespace tfs::detail
