// The seed's `scaled` example with the C++ API; expectations are TF 2.21's (conformance/
// expected_tf.json, case seed_scaled): 4 calls, 3 traces, TRACE lines once per trace and RUN
// lines every call.
#include <gtest/gtest.h>

#include "tfscope/function.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

struct Captured {
  std::vector<std::string> trace_lines;
  std::string printed;
};

std::shared_ptr<Function> make_scaled(Captured& cap) {
  return function("scaled", {"x", "factor"}, [&cap](Tensor x, Value factor) {
    cap.trace_lines.push_back("TRACE " + x.shape().str() + " " + factor.str());  // host code
    print({Value("RUN"), Value(shape(x)), factor});                               // PrintV2
    return multiply(x, factor);
  });
}

class SeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    set_print_sink([this](const std::string& stream, const std::string& text) {
      cap_.printed += stream + ":" + text;
    });
  }
  void TearDown() override { set_print_sink(nullptr); }
  Captured cap_;
};

TEST_F(SeedTest, ScaledTracesThreeTimesInFourCalls) {
  auto scaled = make_scaled(cap_);
  Tensor a = Tensor::from_vector<int32_t>({1, 2});
  Tensor b = Tensor::from_vector<int32_t>({8, 9});
  Tensor c = Tensor::from_vector<int32_t>({1, 2, 3, 4});
  Value r1 = scaled->call({a, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  Value r2 = scaled->call({b, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
  scaled->call({c, 2});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 2);
  scaled->call({c, 3});
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 3);
  EXPECT_EQ(r1.as_tensor().str(), "tf.Tensor([2 4], shape=(2,), dtype=int32)");
  EXPECT_EQ(r2.as_tensor().str(), "tf.Tensor([16 18], shape=(2,), dtype=int32)");
  EXPECT_EQ(cap_.trace_lines,
            (std::vector<std::string>{"TRACE (2,) 2", "TRACE (4,) 2", "TRACE (4,) 3"}));
  EXPECT_EQ(cap_.printed,
            "stderr:RUN [2] 2\nstderr:RUN [2] 2\nstderr:RUN [4] 2\nstderr:RUN [4] 3\n");
}

TEST_F(SeedTest, LedgerExplainsEachTrace) {
  auto scaled = make_scaled(cap_);
  Tensor a = Tensor::from_vector<int32_t>({1, 2});
  Tensor c = Tensor::from_vector<int32_t>({1, 2, 3, 4});
  scaled->call({a, 2});
  scaled->call({a, 2});
  scaled->call({c, 2});
  scaled->call({c, 3});
  auto l = scaled->ledger();
  ASSERT_EQ(l.entries.size(), 4u);
  EXPECT_EQ(l.calls(), 4);
  EXPECT_EQ(l.traces(), 3);
  EXPECT_EQ(l.entries[0].reason, "first call");
  EXPECT_FALSE(l.entries[1].traced);
  EXPECT_EQ(l.entries[2].reason, "x: shape (2,) -> (4,)");
  EXPECT_EQ(l.entries[3].reason, "factor: Literal[2] -> Literal[3]");
}

TEST_F(SeedTest, GraphHasTheOpsTfBuilds) {
  // TF 2.21: Const 2, Identity 1, Mul 1, NoOp 1, Placeholder 1, PrintV2 1, StringFormat 1.
  auto scaled = make_scaled(cap_);
  auto cf = scaled->get_concrete_function({Tensor::from_vector<int32_t>({1, 2}), 2});
  std::map<std::string, int> want{{"Const", 2}, {"Identity", 1}, {"Mul", 1}, {"NoOp", 1},
                                  {"Placeholder", 1}, {"PrintV2", 1}, {"StringFormat", 1}};
  EXPECT_EQ(cf->graph()->op_counts(), want);
  EXPECT_EQ(cf->pretty_printed_signature(false),
            "(x: TensorSpec(shape=(2,), dtype=tf.int32, name=None), factor: Literal[2]) -> "
            "TensorSpec(shape=(2,), dtype=tf.int32, name=None)");
  EXPECT_EQ(cf->pretty_printed_signature(true),
            "Input Parameters:\n"
            "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.int32, name=None)\n"
            "  factor (POSITIONAL_OR_KEYWORD): Literal[2]\n"
            "Output Type:\n"
            "  TensorSpec(shape=(2,), dtype=tf.int32, name=None)\n"
            "Captures:\n"
            "  None");
  EXPECT_EQ(cf->structured_input_signature_repr(),
            "((TensorSpec(shape=(2,), dtype=tf.int32, name='x'), 2), {})");
  EXPECT_EQ(scaled->experimental_get_tracing_count(), 1);
}

}  // namespace
}  // namespace tfs
