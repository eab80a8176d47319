// The tape's rules, each as TF 2.21 behaves (texts from TF's backprop.py, values worked out):
// a non-persistent tape gives one set of gradients, a persistent one many; stop_recording,
// reset, watch_accessed_variables, watched_variables, unconnected gradients, output_gradients.
#include <gtest/gtest.h>

#include "tfscope/errors.h"
#include "tfscope/ops.h"
#include "tfscope/tape.h"
#include "tfscope/variable_state.h"

namespace tfs {
namespace {

Tensor f32(std::vector<float> v) {
  return Tensor::from_vector<float>(v);
}

std::vector<float> values(const Tensor& t) {
  return t.to_vector<float>();
}

TEST(Tape, NonPersistentTapeGivesOneSetOfGradients) {
  Tensor x = f32({3.0f});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = multiply(x, x);
  tape.exit();
  EXPECT_EQ(values(tape.gradient({y}, {x})[0]), std::vector<float>{6.0f});
  try {
    tape.gradient({y}, {x});
    FAIL() << "expected RuntimeError";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.python_type()), "RuntimeError");
    EXPECT_EQ(std::string(e.what()),
              "A non-persistent GradientTape can only be used to compute one set of gradients "
              "(or jacobians)");
  }
}

TEST(Tape, PersistentTapeGivesManyAndSecondTargets) {
  Tensor x = f32({2.0f});
  GradientTape tape(/*persistent=*/true);
  tape.enter();
  tape.watch(x);
  Tensor y = multiply(x, x);  // x^2
  Tensor z = multiply(y, y);  // x^4
  tape.exit();
  EXPECT_EQ(values(tape.gradient({z}, {x})[0]), std::vector<float>{32.0f});  // 4x^3
  EXPECT_EQ(values(tape.gradient({y}, {x})[0]), std::vector<float>{4.0f});   // 2x
  // Two targets: their gradients add.
  EXPECT_EQ(values(tape.gradient({y, z}, {x})[0]), std::vector<float>{36.0f});
}

TEST(Tape, EnteringARecordingTapeIsAnError) {
  GradientTape tape;
  tape.enter();
  try {
    tape.enter();
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "Tape is still recording, This can happen if you try to re-enter an "
              "already-active tape.");
  }
  tape.exit();
}

TEST(Tape, StopRecordingAndUnwatchedTensors) {
  Tensor x = f32({2.0f});
  GradientTape tape(true);
  tape.enter();
  tape.watch(x);
  Tensor a = multiply(x, Value(3.0));
  Tensor b;
  {
    GradientTape::StopRecording stop(tape);
    b = multiply(x, Value(5.0));  // not recorded
  }
  Tensor c = add(a, b);
  tape.exit();
  EXPECT_EQ(values(tape.gradient({c}, {x})[0]), std::vector<float>{3.0f});
  // b is no recorded op's output: unconnected.
  EXPECT_FALSE(tape.gradient({b}, {x})[0].defined());
  Tensor z = tape.gradient({b}, {x}, {}, UnconnectedGradients::kZero)[0];
  EXPECT_EQ(values(z), std::vector<float>{0.0f});
}

TEST(Tape, ResetForgetsWhatWasRecorded) {
  Tensor x = f32({2.0f});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = multiply(x, x);
  tape.reset();
  tape.watch(x);
  Tensor z = add(y, x);  // after the reset only the add is recorded: dz/dx = 1
  tape.exit();
  EXPECT_EQ(values(tape.gradient({z}, {x})[0]), std::vector<float>{1.0f});
}

TEST(Tape, VariablesReadInsideAreWatchedWhenTrainable) {
  auto v = std::make_shared<VariableState>(DType::kFloat32, PartialShape{1}, "v:0", true);
  auto frozen = std::make_shared<VariableState>(DType::kFloat32, PartialShape{1}, "f:0", false);
  execute("AssignVariableOp", {Tensor::resource(v), f32({4.0f})}, {{"dtype", DType::kFloat32}});
  execute("AssignVariableOp", {Tensor::resource(frozen), f32({5.0f})},
          {{"dtype", DType::kFloat32}});
  GradientTape tape(true);
  tape.enter();
  Tensor y = multiply(read_variable(v), read_variable(frozen));
  tape.exit();
  auto watched = tape.watched_variables();
  ASSERT_EQ(watched.size(), 1u);
  EXPECT_EQ(watched[0], v);
  auto g = tape.gradient({y}, {v, frozen});
  EXPECT_EQ(values(g[0]), std::vector<float>{5.0f});
  EXPECT_FALSE(g[1].defined());

  GradientTape manual(false, /*watch_accessed_variables=*/false);
  manual.enter();
  Tensor y2 = multiply(read_variable(v), read_variable(frozen));
  manual.exit();
  EXPECT_TRUE(manual.watched_variables().empty());
  EXPECT_FALSE(manual.gradient({y2}, {v})[0].defined());
}

TEST(Tape, OutputGradientsWeightTheTargets) {
  Tensor x = f32({1.0f, 2.0f});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = multiply(x, x);
  tape.exit();
  Tensor g = tape.gradient({y}, {x}, {f32({10.0f, 100.0f})})[0];
  EXPECT_EQ(values(g), (std::vector<float>{20.0f, 400.0f}));
}

TEST(Tape, NestedTapesGiveSecondDerivatives) {
  Tensor x = f32({3.0f});
  GradientTape outer;
  outer.enter();
  outer.watch(x);
  GradientTape inner;
  inner.enter();
  inner.watch(x);
  Tensor y = multiply(multiply(x, x), x);  // x^3
  inner.exit();
  Tensor dy = inner.gradient({y}, {x})[0];  // 3x^2 = 27, recorded on the outer tape
  outer.exit();
  EXPECT_EQ(values(dy), std::vector<float>{27.0f});
  EXPECT_EQ(values(outer.gradient({dy}, {x})[0]), std::vector<float>{18.0f});  // 6x
}

TEST(Tape, IntegerTensorsAreNotFollowed) {
  Tensor i = Tensor::from_vector<int32_t>({2});
  GradientTape tape;
  tape.enter();
  tape.watch(i);
  Tensor y = multiply(i, i);
  tape.exit();
  EXPECT_FALSE(tape.gradient({y}, {i})[0].defined());
  EXPECT_EQ(watch_warning(DType::kInt32),
            "The dtype of the watched tensor must be floating (e.g. tf.float32), got tf.int32");
  EXPECT_EQ(watch_warning(DType::kFloat32), "");
}

}  // namespace
}  // namespace tfs

namespace tfs {
namespace {

// Worked-out jacobians: y = x * x has d y_i / d x_j = 2 x_i where i == j; y = x . W (rows of a
// batch) has d y[b, i] / d x[b, k] = W[k, i] for every b.
TEST(Jacobian, ElementwiseSquareIsDiagonal) {
  Tensor x = Tensor::from_vector<float>({0.5f, -1.0f, 3.0f});
  GradientTape tape(/*persistent=*/true);
  tape.enter();
  tape.watch(x);
  Tensor y = multiply(x, x);
  tape.exit();
  Tensor j = tape.jacobian(y, {TapeOperand(x)})[0];
  ASSERT_EQ(j.eager_shape(), (Shape{3, 3}));
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(j.data<float>()[i * 3 + k], i == k ? 2 * x.data<float>()[i] : 0.0f);
  // A persistent tape serves a second jacobian; an unconnected source is None, or zeros.
  Tensor other = Tensor::from_vector<float>({1.0f});
  EXPECT_FALSE(tape.jacobian(y, {TapeOperand(other)})[0].defined());
  Tensor z = tape.jacobian(y, {TapeOperand(other)}, UnconnectedGradients::kZero)[0];
  EXPECT_EQ(z.eager_shape(), (Shape{3, 1}));
}

TEST(Jacobian, BatchJacobianOfRowsTimesMatrix) {
  Tensor x = Tensor::from_vector<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor w = Tensor::from_vector<double>({1, -2, 0.5, 4, -1, 3}, Shape{3, 2});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = matmul(x, w);
  tape.exit();
  Tensor bj = tape.batch_jacobian(y, x);
  ASSERT_EQ(bj.eager_shape(), (Shape{2, 2, 3}));
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 3; ++k)
        EXPECT_EQ(bj.data<double>()[(b * 2 + i) * 3 + k], w.data<double>()[k * 2 + i]);
  // The tape was not persistent: it is used up.
  EXPECT_THROW(tape.batch_jacobian(y, x), Error);
}

}  // namespace
}  // namespace tfs

namespace tfs {
namespace {

// tf.identity eagerly is a new tensor: d identity(2x) / dx = 2 (the path is not cut).
TEST(Tape, IdentityKeepsTheGradientPath) {
  Tensor x = f32({3.0f});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = identity(multiply(x, Value(2.0)));
  tape.exit();
  EXPECT_EQ(values(tape.gradient({y}, {x})[0]), std::vector<float>{2.0f});
}

// record_operation (tf.custom_gradient): the recorded gradient replaces the ops' own.
TEST(Tape, RecordedOperationUsesItsGradient) {
  Tensor x = f32({3.0f});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor inner = multiply(x, x);
  Tensor y = identity(inner);
  record_operation({y}, {x}, [](const std::vector<Tensor>& g) {
    return std::vector<Tensor>{multiply(g[0], Value(10.0))};
  });
  Tensor z = multiply(y, Value(2.0));
  tape.exit();
  EXPECT_EQ(values(tape.gradient({z}, {x})[0]), std::vector<float>{20.0f});  // 2 * 10, not 2 * 2x
}

}  // namespace
}  // namespace tfs
