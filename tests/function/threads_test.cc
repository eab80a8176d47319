// Functions called from several threads at once (issue 12): traces and hits interleave, a pool
// makes the first calls of a fresh function. Run under ThreadSanitizer by `make tsan`; the
// expected counts are worked out from TF's rules (one trace per distinct shape, however many
// threads ask for it).
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

std::vector<int32_t> ones(int n) {
  return std::vector<int32_t>(static_cast<size_t>(n), 1);
}

TEST(FunctionThreads, TwoThreadsTracingAndHittingOneFunction) {
  set_warning_sink([](const std::string&) {});
  for (int round = 0; round < 4; ++round) {
    auto f = function("threads_two_" + std::to_string(round), {"x"},
                      [](Tensor x) { return multiply(x, Value(2)); });
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        for (int i = 0; i < 40; ++i) {
          int n = 1 + (i + t) % 3;  // shapes (1,), (2,), (3,)
          Value r = f->call({Tensor::from_vector<int32_t>(ones(n))});
          if (r.as_tensor().to_vector<int32_t>() != std::vector<int32_t>(static_cast<size_t>(n), 2))
            wrong++;
        }
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_EQ(f->experimental_get_tracing_count(), 3);
    CallLedger l = f->ledger();
    EXPECT_EQ(l.calls(), 80);
    EXPECT_EQ(l.traces(), 3);
  }
  set_warning_sink(nullptr);
}

TEST(FunctionThreads, PoolMakesTheFirstCallsOfAFreshFunction) {
  for (int round = 0; round < 4; ++round) {
    auto f = function("threads_pool_" + std::to_string(round), {"x"},
                      [](Tensor x) { return add(x, Value(1)); });
    std::atomic<int> sum{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        Value r = f->call({Tensor::scalar<int32_t>(t)});
        sum += r.as_tensor().item<int32_t>();
      });
    }
    for (auto& t : threads) t.join();
    EXPECT_EQ(sum.load(), 36);  // (0+1) + ... + (7+1)
    EXPECT_EQ(f->experimental_get_tracing_count(), 1);
    EXPECT_EQ(f->ledger().traces(), 1);
    EXPECT_EQ(f->ledger().calls(), 8);
  }
}

TEST(FunctionThreads, ConcurrentNestedCalls) {
  // Threads calling an outer function that calls an inner one: the inner function is traced
  // once (inside the outer's only trace), and every call computes (x * 3) + 1.
  auto inner = function("threads_inner", {"x"}, [](Tensor x) { return multiply(x, Value(3)); });
  auto outer = function("threads_outer", {"x"},
                        [inner](Tensor x) { return add(inner->call({x}).as_tensor(), Value(1)); });
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        Value r = outer->call({Tensor::scalar<int32_t>(t + i)});
        if (r.as_tensor().item<int32_t>() != (t + i) * 3 + 1) wrong++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(outer->experimental_get_tracing_count(), 1);
  EXPECT_EQ(inner->experimental_get_tracing_count(), 1);
  EXPECT_EQ(outer->ledger().calls(), 100);
  EXPECT_EQ(inner->ledger().calls(), 1);
}

}  // namespace
}  // namespace tfs
