#include "tfscope/interrupt.h"

#include <atomic>
#include <chrono>

namespace tfs {
namespace {

std::atomic<InterruptCheck> g_check{nullptr};

}  // namespace

void set_interrupt_check(InterruptCheck check) {
  g_check.store(check, std::memory_order_release);
}

void poll_interrupt() {
  const InterruptCheck check = g_check.load(std::memory_order_acquire);
  if (!check) return;
  using Clock = std::chrono::steady_clock;
  thread_local Clock::time_point last = Clock::now();
  const Clock::time_point now = Clock::now();
  if (now - last < std::chrono::milliseconds(20)) return;
  last = now;
  check();
}

}  // namespace tfs
