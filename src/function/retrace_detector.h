// TF's _FrequentTracingDetector: per detector key (the code the function was made from), a
// window of call groups; the fifth trace within the last ten calls warns, at most twice. A hit
// only counts a call, so it is an atomic increment folded in at the next trace: the hit path
// takes no lock here.
#pragma once

#include <atomic>
#include <deque>
#include <mutex>
#include <string>

namespace tfs::detail {

class RetraceDetector {
 public:
  static RetraceDetector& for_key(const std::string& key);

  void record_hit() { pending_hits_.fetch_add(1, std::memory_order_relaxed); }
  // Records a traced call; returns the warning to emit, or "".
  std::string record_trace(const std::string& display_name);

 private:
  std::mutex mu_;
  std::deque<int> calls_per_tracing_;
  int call_count_ = 0;
  int warnings_ = 0;
  bool omit_ = false;  // a key "omit:..." (restored SavedModel functions)
  std::atomic<int> pending_hits_{0};
};

// Sends a warning to the sink set by set_warning_sink (default: stderr, TF's format).
void emit_warning(const std::string& msg);

}  // namespace tfs::detail
