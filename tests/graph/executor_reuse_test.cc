// A plan keeps the buffers of its intermediate values for its next run (detail/kernel_run.h):
// a kernel that allocates an output of the same dtype and shape gets the buffer that output had
// in the last run, and never a buffer anyone else can still see (a fetched value, the caller's
// argument). The probe op below shows which buffer a kernel was given: it reads the buffer's
// first element before writing, which in a reused buffer is what it wrote in the previous run.
// Expected values are worked out by hand.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

std::atomic<float> g_prior{0.0f};  // the probe's output buffer's first element before it wrote

// y = x + 1 (float), into a buffer from allocate_output.
OpRegistration r_probe([] {
  OpDef d;
  d.name = "ExecutorReuseProbe";
  d.inputs = {{"x", "", DType::kFloat32}};
  d.outputs = {{"y", "", DType::kFloat32}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, c.in(0)); };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& y = ctx.allocate_output(0, DType::kFloat32, x.eager_shape());
    float* out = y.data<float>();
    if (x.num_elements() > 0) g_prior = out[0];
    for (int64_t i = 0; i < x.num_elements(); ++i) out[i] = x.data<float>()[i] + 1.0f;
  };
  return d;
}());

Tensor probe(const Tensor& x) {
  return execute1("ExecutorReuseProbe", {x});
}

Tensor vec(std::vector<float> v) {
  return Tensor::from_vector<float>(v);
}

TEST(ExecutorReuse, AnIntermediateBufferIsWrittenAgainInTheNextRun) {
  // The probe's output is Relu's operand only: let go of after Relu, kept for the next run.
  auto f = function("reuse_intermediate", {"x"}, [](Tensor x) { return relu(probe(x)); });
  // Tensors of the same size made between the runs take whatever buffers the first run freed
  // (and fill them with -1), so the probe's buffer in the second run is the one it had only if
  // the plan kept it.
  std::vector<Tensor> hog;
  auto take_freed_buffers = [&hog] {
    for (int i = 0; i < 16; ++i) hog.push_back(vec({-1.0f, -1.0f}));
  };
  EXPECT_EQ(f->call({vec({-12346.5f, 3.0f})}).as_tensor().to_vector<float>(),
            (std::vector<float>{0.0f, 4.0f}));
  take_freed_buffers();
  EXPECT_EQ(f->call({vec({0.0f, 0.0f})}).as_tensor().to_vector<float>(),
            (std::vector<float>{1.0f, 1.0f}));
  EXPECT_EQ(g_prior.load(), -12345.5f);  // run 1's probe output, in the buffer run 2 was given
  take_freed_buffers();
  EXPECT_EQ(f->call({vec({-8.0f, -9.0f})}).as_tensor().to_vector<float>(),
            (std::vector<float>{0.0f, 0.0f}));
  EXPECT_EQ(g_prior.load(), 1.0f);
}

TEST(ExecutorReuse, AFetchedValueIsNeverWrittenAgain) {
  // The probe's output is also returned: the caller holds it, so the next run writes elsewhere.
  auto f = function("reuse_fetched", {"x"}, [](Tensor x) {
    Tensor y = probe(x);
    return Value::tuple({Value(y), Value(relu(y))});
  });
  Value r1 = f->call({vec({1.0f, -5.0f})});
  Value r2 = f->call({vec({7.0f, 8.0f})});
  EXPECT_EQ(r1.items()[0].as_tensor().to_vector<float>(), (std::vector<float>{2.0f, -4.0f}));
  EXPECT_EQ(r1.items()[1].as_tensor().to_vector<float>(), (std::vector<float>{2.0f, 0.0f}));
  EXPECT_EQ(r2.items()[0].as_tensor().to_vector<float>(), (std::vector<float>{8.0f, 9.0f}));
  EXPECT_EQ(r2.items()[1].as_tensor().to_vector<float>(), (std::vector<float>{8.0f, 9.0f}));
}

TEST(ExecutorReuse, TheCallersArgumentIsNeverWritten) {
  // Relu's operand is the argument itself: held by the caller, never a spare.
  auto f = function("reuse_argument", {"x"}, [](Tensor x) { return probe(relu(x)); });
  Tensor x = vec({3.0f, -2.0f});
  EXPECT_EQ(f->call({x}).as_tensor().to_vector<float>(), (std::vector<float>{4.0f, 1.0f}));
  EXPECT_EQ(f->call({x}).as_tensor().to_vector<float>(), (std::vector<float>{4.0f, 1.0f}));
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{3.0f, -2.0f}));
}

TEST(ExecutorReuse, AnotherShapeGetsANewBuffer) {
  // reduce_retracing: the second call traces for shape [None], whose plan the third runs.
  FunctionOptions relaxed;
  relaxed.reduce_retracing = true;
  auto f = function(
      "reuse_shapes", {"x"}, [](Tensor x) { return relu(probe(x)); }, relaxed);
  EXPECT_EQ(f->call({vec({1.0f, 2.0f})}).as_tensor().to_vector<float>(),
            (std::vector<float>{2.0f, 3.0f}));
  EXPECT_EQ(f->call({vec({-4.0f, 5.0f, 6.0f})}).as_tensor().to_vector<float>(),
            (std::vector<float>{0.0f, 6.0f, 7.0f}));
  EXPECT_EQ(f->call({vec({0.5f})}).as_tensor().to_vector<float>(), (std::vector<float>{1.5f}));
}

TEST(ExecutorReuse, ConcurrentRunsOfOnePlan) {
  // Each run works in a state of its own (the plan keeps one between runs): threads running
  // the same plan at once never share a spare.
  auto f = function("reuse_threads", {"x"}, [](Tensor x) { return relu(probe(probe(x))); });
  f->call({vec({0.0f, 0.0f, 0.0f})});
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        float v = static_cast<float>(t * 1000 + i);
        auto r = f->call({vec({v, -v - 10.0f, v + 0.5f})}).as_tensor().to_vector<float>();
        if (r != std::vector<float>{v + 2.0f, 0.0f, v + 2.5f}) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace tfs
