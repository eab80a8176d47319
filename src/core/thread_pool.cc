// The pool's mechanics (include/tfscope/thread_pool.h). A parallel_for publishes one Job; the
// workers and the caller take task indices from its counter until none is left. The caller
// returns once every task has finished and no worker still holds the job. Both sides poll a
// while before they sleep (kWorkerSpin, kCallerSpin), so back-to-back jobs need no wake-up.
#include "tfscope/thread_pool.h"

#include <atomic>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TFS_HAVE_MXCSR 1
#endif

namespace tfs {

namespace {
thread_local bool t_in_task = false;

uint32_t read_fp_state() {
#ifdef TFS_HAVE_MXCSR
  return _mm_getcsr();
#else
  return 0;
#endif
}
void write_fp_state(uint32_t s) {
#ifdef TFS_HAVE_MXCSR
  _mm_setcsr(s);
#else
  (void)s;
#endif
}
}  // namespace

struct ThreadPool::Job {
  const std::function<void(int64_t)>* task = nullptr;
  int64_t tasks = 0;
  uint32_t fp_state = 0;
  std::atomic<int64_t> next{0};
  std::mutex error_mu;
  std::exception_ptr error;
};

namespace {
// How long a worker keeps polling for the next job after one ends, and how long the caller polls
// for the workers to finish, before either sleeps on a condition variable. Waking a sleeping
// thread costs tens of microseconds on a virtual machine (the futex wake-up and the scheduler),
// as long as a 784x256 GEMM slice at batch 64; the MLP's products follow each other closer than
// this, so a worker already spinning takes its share at once. Eigen's pool, which TF's kernels
// run on, also spins before it sleeps.
constexpr auto kWorkerSpin = std::chrono::microseconds(200);
constexpr auto kCallerSpin = std::chrono::microseconds(1000);

inline void cpu_relax() {
#ifdef TFS_HAVE_MXCSR
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Polls until ready() or `budget` has passed; true when ready.
template <class Ready>
bool spin_until(Ready ready, std::chrono::microseconds budget) {
  const auto end = std::chrono::steady_clock::now() + budget;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= end) return ready();
  }
}
}  // namespace

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::run_tasks(Job& job) {
  const bool was_in_task = t_in_task;
  t_in_task = true;
  for (int64_t i; (i = job.next.fetch_add(1, std::memory_order_relaxed)) < job.tasks;) {
    try {
      (*job.task)(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(job.error_mu);
      if (!job.error) job.error = std::current_exception();
    }
  }
  t_in_task = was_in_task;
}

// The hand-offs are lock-free; each pairs a store with a load on the other side, all sequentially
// consistent, so that of two threads one always sees the other's store:
// - joining: a worker counts itself in active_, then checks that job_ still holds the job; the
//   caller clears job_, then waits for active_ to reach 0. So a job is never freed under a worker.
// - sleeping: a worker counts itself in sleepers_ (under mu_), then checks generation_; the caller
//   bumps generation_, then reads sleepers_ and notifies under mu_ when someone may sleep.
// - the caller's wait: it sets caller_waiting_, then checks active_; the last worker out lowers
//   active_, then reads caller_waiting_ and notifies under mu_.
void ThreadPool::worker() {
  uint64_t seen = 0;
  for (;;) {
    auto ready = [&] { return stop_.load() || generation_.load() != seen; };
    if (!spin_until(ready, kWorkerSpin)) {
      std::unique_lock<std::mutex> lock(mu_);
      sleepers_.fetch_add(1);
      wake_.wait(lock, ready);
      sleepers_.fetch_sub(1);
    }
    if (stop_.load()) return;
    seen = generation_.load();
    Job* job = job_.load();
    if (job == nullptr) continue;  // that job has already finished
    active_.fetch_add(1);
    if (job_.load() == job) {  // still published: its caller waits for active_ before it returns
      const uint32_t own = read_fp_state();
      write_fp_state(job->fp_state);
      run_tasks(*job);
      write_fp_state(own);
    }
    // The job's last use by this worker: its caller may free it once active_ reads 0.
    if (active_.fetch_sub(1) == 1 && caller_waiting_.load()) {
      std::lock_guard<std::mutex> lock(mu_);
      idle_.notify_all();
    }
  }
}

void ThreadPool::parallel_for(int64_t tasks, const std::function<void(int64_t)>& task) {
  if (tasks <= 0) return;
  std::unique_lock<std::mutex> busy(busy_, std::defer_lock);
  if (tasks == 1 || workers_.empty() || t_in_task || !busy.try_lock()) {
    for (int64_t i = 0; i < tasks; ++i) task(i);
    return;
  }
  Job job;
  job.task = &task;
  job.tasks = tasks;
  job.fp_state = read_fp_state();
  job_.store(&job);
  generation_.fetch_add(1);
  if (sleepers_.load() > 0) {
    std::lock_guard<std::mutex> lock(mu_);
    wake_.notify_all();
  }
  run_tasks(job);
  job_.store(nullptr);  // late workers find nothing to join
  auto finished = [&] { return active_.load() == 0; };
  if (!spin_until(finished, kCallerSpin)) {
    std::unique_lock<std::mutex> lock(mu_);
    caller_waiting_.store(true);
    idle_.wait(lock, finished);
    caller_waiting_.store(false);
  }
  // Every task was taken (the caller's run_tasks ran out) and every worker that took one is out.
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace tfs
