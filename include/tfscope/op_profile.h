// Per-op timing of the graph executor, for tfscope.profile and `tfscope profile`: while an
// OpProfile records, every kernel a plan runs (on any thread) adds one event, with the node, its
// op type, the function whose plan ran it and how deep that plan was nested. When no profile
// records, the executor pays one relaxed atomic load per plan run and nothing per op.
// A tfscope extension in the shape of TF Profiler's trace viewer and op statistics: like TF's,
// only ops that run a kernel are events (a Const's value is placed without one).
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace tfs {

struct OpEvent {
  std::string node;      // the node's name in its graph
  std::string op;        // its op type
  std::string function;  // the name of the graph whose plan ran it (a function's graph)
  int depth = 0;         // 0: the outermost plan run while recording; +1 per call node
  int thread = 0;        // 1-based, in the order threads first ran an op while recording
  int64_t start_ns = 0;  // since the profile started
  int64_t dur_ns = 0;
};

class OpProfile {
 public:
  OpProfile() = default;
  ~OpProfile() { stop(); }
  OpProfile(const OpProfile&) = delete;
  OpProfile& operator=(const OpProfile&) = delete;

  // Records until stop(); one profile records at a time (an error otherwise).
  void start();
  void stop();
  bool recording() const;
  // The events so far, in the order their ops finished.
  std::vector<OpEvent> events() const;

  // The recording profile, or null: the executor's one check per plan run.
  static OpProfile* active() { return active_.load(std::memory_order_relaxed); }
  // Clock and bookkeeping of the executor's events (the recording path only).
  int64_t now_ns() const;
  void add(OpEvent e);
  int thread_number();

 private:
  static std::atomic<OpProfile*> active_;
  int64_t t0_ns_ = 0;
  mutable std::mutex mu_;
  std::vector<OpEvent> events_;
  std::vector<uint64_t> threads_;  // thread id hashes, by number - 1
};

}  // namespace tfs
