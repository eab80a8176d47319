#include "tfscope/op_profile.h"

#include <chrono>
#include <functional>
#include <thread>

#include "tfscope/errors.h"

namespace tfs {

std::atomic<OpProfile*> OpProfile::active_{nullptr};

namespace {
int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
}  // namespace

void OpProfile::start() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    events_.clear();
    threads_.clear();
    t0_ns_ = steady_ns();
  }
  OpProfile* none = nullptr;
  if (!active_.compare_exchange_strong(none, this) && none != this)
    throw Error(ErrorKind::kFailedPrecondition,
                "[profile] another profile is already recording (stop it first)");
}

void OpProfile::stop() {
  OpProfile* me = this;
  active_.compare_exchange_strong(me, nullptr);
}

bool OpProfile::recording() const {
  return active_.load() == this;
}

std::vector<OpEvent> OpProfile::events() const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_;
}

int64_t OpProfile::now_ns() const {
  return steady_ns() - t0_ns_;
}

int OpProfile::thread_number() {
  uint64_t id = std::hash<std::thread::id>{}(std::this_thread::get_id());
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < threads_.size(); ++i)
    if (threads_[i] == id) return static_cast<int>(i) + 1;
  threads_.push_back(id);
  return static_cast<int>(threads_.size());
}

void OpProfile::add(OpEvent e) {
  std::lock_guard<std::mutex> lock(mu_);
  events_.push_back(std::move(e));
}

}  // namespace tfs
