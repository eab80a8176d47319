// The threads tfscope's big kernels run on, sized as TF 2.21 sizes its pools, and
// tf.config.threading's settings. One intra-op pool exists, owned by the execution context
// (src/ops/context.cc); GEMM, convolution and the full reductions split their outputs over it.
// A kernel's bits never depend on which thread computes which part: each output is summed by one
// thread in the order TF sums it; what TF's order depends on is the pool's size
// (intra_op_threads()), not on the threads actually running.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tfs {

class ThreadPool {
 public:
  // `threads` >= 1 run each parallel_for: the caller and threads - 1 workers.
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Runs task(i) for every i in [0, tasks), on the caller and the workers, and returns when all
  // have finished; the first exception a task throws is rethrown here (the other tasks still
  // run). Each task runs with the caller's floating-point control state (MXCSR: flush-to-zero,
  // denormals-are-zero, rounding), so its bits are those it would have on the caller. Called
  // from inside a task, or while another thread's parallel_for holds the workers, it runs the
  // tasks on the caller alone, in order: it never waits for a worker that waits for it.
  void parallel_for(int64_t tasks, const std::function<void(int64_t)>& task);

 private:
  struct Job;
  void worker();
  static void run_tasks(Job& job);

  std::vector<std::thread> workers_;
  std::mutex busy_;  // held by the parallel_for that owns the workers
  std::mutex mu_;    // the condition variables' mutex; the hand-offs themselves are atomic
  std::condition_variable wake_, idle_;
  std::atomic<Job*> job_{nullptr};           // the job workers may join
  std::atomic<uint64_t> generation_{0};      // bumped for each job; polling workers watch it
  std::atomic<int> active_{0};               // workers inside a job
  std::atomic<int> sleepers_{0};             // workers waiting on wake_
  std::atomic<bool> caller_waiting_{false};  // a parallel_for waiting on idle_
  std::atomic<bool> stop_{false};
};

// tf.config.threading: 0 means TF's default. TF accepts any value until the context is
// initialized (here: its first op, tensor or trace, mark_context_initialized()); a different
// value after that is TF's RuntimeError "Intra op parallelism cannot be modified after
// initialization." (and "Inter op ..."); the same value is accepted.
int configured_intra_op_threads();
int configured_inter_op_threads();
void set_intra_op_parallelism_threads(int n);
void set_inter_op_parallelism_threads(int n);

// The size of TF's pools for those settings: a configured count > 0, else TF_NUM_INTRAOP_THREADS
// (TF_NUM_INTEROP_THREADS) when positive, else the schedulable CPUs (TF's port::MaxParallelism
// for both pools on Linux without OpenMP, as its pip wheel is built).
int intra_op_threads();
int inter_op_threads();

// The intra-op pool, created at first use with intra_op_threads() threads (and the context
// initialized then).
ThreadPool& intra_op_pool();

// Splits [0, units) into at most intra_op_threads() * 4 contiguous ranges of whole units, at
// least `min_units` each, and runs body(begin, end) for each on the intra-op pool (inline when
// one range covers it all).
void parallel_ranges(int64_t units, int64_t min_units,
                     const std::function<void(int64_t, int64_t)>& body);

void mark_context_initialized();
bool context_initialized();

}  // namespace tfs
