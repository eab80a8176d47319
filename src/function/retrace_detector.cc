#include "retrace_detector.h"

#include <cstdio>
#include <functional>
#include <map>
#include <memory>

#include "tfscope/function.h"

namespace tfs {

namespace {

// Never destroyed: the sink may hold a Python callable, which must not be released after the
// interpreter has gone (at exit, static destructors run without the GIL).
struct WarningSink {
  std::mutex mu;
  std::function<void(const std::string&)> sink;
};
WarningSink& warning_sink() {
  static WarningSink* s = new WarningSink();
  return *s;
}

struct Detectors {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<detail::RetraceDetector>> by_key;
};
Detectors& detectors() {
  static Detectors* d = new Detectors();
  return *d;
}

}  // namespace

void set_warning_sink(std::function<void(const std::string&)> sink) {
  WarningSink& w = warning_sink();
  std::function<void(const std::string&)> old;
  {
    std::lock_guard<std::mutex> lock(w.mu);
    old = std::move(w.sink);
    w.sink = std::move(sink);
  }
  // `old` is released here, outside the lock (it may call back into Python).
}

namespace detail {

void emit_warning(const std::string& msg) {
  WarningSink& w = warning_sink();
  std::function<void(const std::string&)> sink;
  {
    std::lock_guard<std::mutex> lock(w.mu);
    sink = w.sink;
  }
  if (sink)
    sink(msg);
  else
    std::fprintf(stderr, "WARNING:tensorflow:%s\n", msg.c_str());
}

RetraceDetector& RetraceDetector::for_key(const std::string& key) {
  Detectors& d = detectors();
  std::lock_guard<std::mutex> lock(d.mu);
  auto& slot = d.by_key[key];
  if (!slot) {
    slot = std::make_unique<RetraceDetector>();
    // TF's RestoredFunction sets _omit_frequent_tracing_warning: its traces count, never warn.
    slot->omit_ = key.rfind("omit:", 0) == 0;
  }
  return *slot;
}

std::string RetraceDetector::record_trace(const std::string& display_name) {
  std::lock_guard<std::mutex> lock(mu_);
  // The hits since the last trace, as TF counted them one by one.
  int hits = pending_hits_.exchange(0, std::memory_order_relaxed);
  if (hits > 0) {
    if (calls_per_tracing_.empty()) calls_per_tracing_.push_back(0);
    calls_per_tracing_.back() += hits;
    call_count_ += hits;
  }
  call_count_ += 1;
  calls_per_tracing_.push_back(1);
  while (!calls_per_tracing_.empty() && call_count_ - calls_per_tracing_.front() > 10) {
    call_count_ -= calls_per_tracing_.front();
    calls_per_tracing_.pop_front();
  }
  if (omit_ || warnings_ >= 2 || calls_per_tracing_.size() < 5) return "";
  warnings_++;
  return std::to_string(calls_per_tracing_.size()) + " out of the last " +
         std::to_string(call_count_) + " calls to " + display_name +
         " triggered tf.function retracing. Tracing is expensive and the excessive number of "
         "tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) passing "
         "tensors with different shapes, (3) passing Python objects instead of tensors. For (1), "
         "please define your @tf.function outside of the loop. For (2), @tf.function has "
         "reduce_retracing=True option that can avoid unnecessary retracing. For (3), please "
         "refer to https://www.tensorflow.org/guide/function#controlling_retracing and "
         "https://www.tensorflow.org/api_docs/python/tf/function for  more details.";
}

}  // namespace detail

}  // namespace tfs
