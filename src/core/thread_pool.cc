// The pool's mechanics (include/tfscope/thread_pool.h). A parallel_for publishes one Job; the
// workers and the caller take task indices from its counter until none is left. The caller
// returns once every task has finished and no worker still holds the job.
#include "tfscope/thread_pool.h"

#include <atomic>

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
  std::atomic<int64_t> done{0};
  int users = 0;  // workers inside run_tasks (guarded by the pool's mu_)
  std::mutex error_mu;
  std::exception_ptr error;
};

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
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
    job.done.fetch_add(1, std::memory_order_acq_rel);
  }
  t_in_task = was_in_task;
}

void ThreadPool::worker() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || (job_ != nullptr && generation_ != seen); });
    if (stop_) return;
    seen = generation_;
    Job* job = job_;
    job->users++;
    lock.unlock();
    const uint32_t own = read_fp_state();
    write_fp_state(job->fp_state);
    run_tasks(*job);
    write_fp_state(own);
    lock.lock();
    if (--job->users == 0) idle_.notify_all();
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
  {
    std::lock_guard<std::mutex> lock(mu_);
    job_ = &job;
    generation_++;
  }
  wake_.notify_all();
  run_tasks(job);
  {
    std::unique_lock<std::mutex> lock(mu_);
    job_ = nullptr;  // late workers find nothing to join
    idle_.wait(lock, [&] {
      return job.users == 0 && job.done.load(std::memory_order_acquire) == job.tasks;
    });
  }
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace tfs
