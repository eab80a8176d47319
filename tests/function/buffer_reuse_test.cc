// Kernels that write into an input's buffer (src/ops/buffer_reuse.h: AssignSub/AssignAdd update a
// variable in place, binary ops forward an input nothing else holds) must never change a tensor
// someone can still see: a held read of the variable, the caller's argument, a value also
// fetched. Expected values are worked out by hand.
#include <gtest/gtest.h>

#include <vector>

#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfs {
namespace {

std::vector<float> floats(const Value& v) {
  Tensor t = v.as_tensor();
  return std::vector<float>(t.data<float>(), t.data<float>() + t.num_elements());
}

Tensor vec(std::vector<float> v) {
  return Tensor::from_vector<float>(v);
}

TEST(BufferReuse, AssignSubKeepsAReadHeldEagerly) {
  Variable v(Value(vec({1, 2, 3})));
  Tensor held = v.read_value();
  v.assign_sub(Value(vec({1, 1, 1})));
  EXPECT_EQ(floats(Value(held)), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(floats(Value(v.read_value())), (std::vector<float>{0, 1, 2}));
  held = Tensor();  // now only the variable holds its value: the update may run in place
  v.assign_sub(Value(vec({1, 1, 1})));
  v.assign_add(Value(vec({0.5f, 0.5f, 0.5f})));
  EXPECT_EQ(floats(Value(v.read_value())), (std::vector<float>{-0.5f, 0.5f, 1.5f}));
}

// The read is returned, so it is still held when the update runs after it.
TEST(BufferReuse, AssignSubInAFunctionKeepsTheReadItReturns) {
  Variable v(Value(vec({4, 5})));
  auto step = function("reuse_read_then_sub", {}, [&] {
    Tensor before = v.read_value();
    v.assign_sub(Value(vec({1, 2})));
    return before;
  });
  EXPECT_EQ(floats(step->call({})), (std::vector<float>{4, 5}));
  EXPECT_EQ(floats(step->call({})), (std::vector<float>{3, 3}));
  EXPECT_EQ(floats(Value(v.read_value())), (std::vector<float>{2, 1}));
}

// SGD as the training step writes it: the read feeds a product, then the variable is updated by
// a scaled delta (0.5 * [2, 4] = [1, 2]); three steps from [10, 20].
TEST(BufferReuse, SgdStepsInAFunction) {
  Variable w(Value(vec({10, 20})));
  auto step = function("reuse_sgd", {"g"}, [&](Tensor g) {
    Tensor y = multiply(w.read_value(), Value(2.0f));
    w.assign_sub(Value(multiply(Value(0.5f), g)));
    return y;
  });
  Tensor g = vec({2, 4});
  EXPECT_EQ(floats(step->call({g})), (std::vector<float>{20, 40}));
  EXPECT_EQ(floats(step->call({g})), (std::vector<float>{18, 36}));
  EXPECT_EQ(floats(step->call({g})), (std::vector<float>{16, 32}));
  EXPECT_EQ(floats(Value(w.read_value())), (std::vector<float>{7, 14}));
  EXPECT_EQ(floats(Value(g)), (std::vector<float>{2, 4}));  // the argument is the caller's
}

// y = x * 2 is both returned and multiplied again: the second Mul must not write into it. The
// chain x * 2 * 3 + 1 may reuse its intermediates; the caller's x stays.
TEST(BufferReuse, ForwardedBinaryOutputsLeaveWhatIsStillSeen) {
  auto f = function("reuse_binary", {"x"}, [](Tensor x) {
    Tensor y = multiply(x, Value(2.0f));
    Tensor z = multiply(y, Value(3.0f));
    Tensor w = add(multiply(multiply(x, Value(2.0f)), Value(3.0f)), Value(1.0f));
    Tensor s = subtract(w, z);  // same shapes: either input could be forwarded
    return Value::tuple({Value(y), Value(z), Value(w), Value(s)});
  });
  Tensor x = vec({1, -2, 3});
  Value r = f->call({x});
  EXPECT_EQ(floats(r.items()[0]), (std::vector<float>{2, -4, 6}));
  EXPECT_EQ(floats(r.items()[1]), (std::vector<float>{6, -12, 18}));
  EXPECT_EQ(floats(r.items()[2]), (std::vector<float>{7, -11, 19}));
  EXPECT_EQ(floats(r.items()[3]), (std::vector<float>{1, 1, 1}));
  EXPECT_EQ(floats(Value(x)), (std::vector<float>{1, -2, 3}));
}

// Eagerly every input is the caller's: nothing is forwarded.
TEST(BufferReuse, EagerOperandsAreNeverWritten) {
  Tensor a = vec({1, 2}), b = vec({3, 4});
  Tensor c = multiply(a, b);
  Tensor d = multiply(Value(2.0f), a);
  EXPECT_EQ(floats(Value(c)), (std::vector<float>{3, 8}));
  EXPECT_EQ(floats(Value(d)), (std::vector<float>{2, 4}));
  EXPECT_EQ(floats(Value(a)), (std::vector<float>{1, 2}));
  EXPECT_EQ(floats(Value(b)), (std::vector<float>{3, 4}));
}

}  // namespace
}  // namespace tfs
