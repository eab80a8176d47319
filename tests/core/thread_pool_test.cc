// The pool's contract (tfscope/thread_pool.h): every task runs once, the caller waits for all,
// exceptions come back, nested and concurrent calls do not deadlock, and tasks see the caller's
// floating-point mode.
#include "tfscope/thread_pool.h"

#include <gtest/gtest.h>
#include <immintrin.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace tfs {
namespace {

TEST(ThreadPool, RunsEveryTaskOnceAndWaitsForAll) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.num_threads(), threads);
    for (int64_t tasks : {0, 1, 3, 64, 1000}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(tasks));
      pool.parallel_for(tasks, [&](int64_t i) { runs[static_cast<size_t>(i)].fetch_add(1); });
      for (int64_t i = 0; i < tasks; ++i) EXPECT_EQ(runs[static_cast<size_t>(i)].load(), 1) << i;
    }
  }
}

// Waits (bounded) inside each of `threads` tasks until all have started: true when every thread
// of the pool took one.
bool every_thread_takes_a_task(ThreadPool& pool, int threads) {
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::atomic<int> arrived{0};
  pool.parallel_for(threads, [&](int64_t) {
    arrived.fetch_add(1);
    for (int spin = 0; spin < 20000000 && arrived.load() < threads; ++spin)
      std::this_thread::yield();
    std::lock_guard<std::mutex> lock(mu);
    ids.insert(std::this_thread::get_id());
  });
  return static_cast<int>(ids.size()) == threads;
}

TEST(ThreadPool, UsesTheWorkers) {
  ThreadPool pool(3);
  EXPECT_TRUE(every_thread_takes_a_task(pool, 3));
}

// Jobs that follow each other closely are taken by workers still polling; after a pause longer
// than their polling they sleep, and a new job still wakes them.
TEST(ThreadPool, WorkersTakeBackToBackJobsAndWakeAfterAPause) {
  ThreadPool pool(2);
  int64_t sum = 0;
  for (int rep = 0; rep < 20000; ++rep) {
    std::atomic<int64_t> part{0};
    pool.parallel_for(3, [&](int64_t i) { part.fetch_add(i + 1); });
    sum += part.load();
  }
  EXPECT_EQ(sum, 20000 * 6);
  EXPECT_TRUE(every_thread_takes_a_task(pool, 2));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the workers' polling
  EXPECT_TRUE(every_thread_takes_a_task(pool, 2));
}

TEST(ThreadPool, DestroysWhileWorkersPollOrSleep) {
  for (int rep = 0; rep < 50; ++rep) {
    ThreadPool pool(3);
    std::atomic<int> ran{0};
    pool.parallel_for(6, [&](int64_t) { ran.fetch_add(1); });
    EXPECT_EQ(ran.load(), 6);
    if (rep % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

TEST(ThreadPool, RethrowsTheFirstExceptionAfterAllTasksRan) {
  ThreadPool pool(2);
  std::atomic<int> ran{0};
  EXPECT_THROW(pool.parallel_for(50,
                                 [&](int64_t i) {
                                   ran.fetch_add(1);
                                   if (i % 10 == 3) throw std::runtime_error("task");
                                 }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 50);
  int after = 0;  // the pool still works
  pool.parallel_for(1, [&](int64_t) { after = 1; });
  EXPECT_EQ(after, 1);
}

TEST(ThreadPool, NestedAndConcurrentCallsFinish) {
  ThreadPool pool(2);
  std::atomic<int64_t> sum{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&] {
      for (int rep = 0; rep < 50; ++rep) {
        pool.parallel_for(4, [&](int64_t i) {
          pool.parallel_for(3, [&](int64_t j) { sum.fetch_add(i * 3 + j + 1); });
        });
      }
    });
  }
  for (auto& c : callers) c.join();
  EXPECT_EQ(sum.load(), 3 * 50 * (12 * 13 / 2));
}

TEST(ThreadPool, TasksRunInTheCallersFloatingPointMode) {
  ThreadPool pool(2);
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved | 0x8040);  // flush-to-zero and denormals-are-zero
  std::vector<float> out(64);
  volatile float tiny = 1e-39f, two = 2.0f;  // a denormal: 0 under DAZ, whichever thread
  pool.parallel_for(64, [&](int64_t i) { out[static_cast<size_t>(i)] = tiny * two; });
  _mm_setcsr(saved);
  for (float v : out) EXPECT_EQ(v, 0.0f);
  pool.parallel_for(64, [&](int64_t i) { out[static_cast<size_t>(i)] = tiny * two; });
  for (float v : out) EXPECT_EQ(v, 2e-39f);
}

}  // namespace
}  // namespace tfs
