// The generic op wrapper (tfs::apply_op) and the name= override of the front ends, against what
// TF 2.21 builds for the same calls in a tf.function (node names from its graph: tf.add(x, y,
// name="foo") is "foo", a second "foo_1" whose host operand is "foo_1/y"), and TF's error texts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tfscope/errors.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using ::testing::ElementsAre;

std::vector<std::string> node_names(FuncGraphBuilder& b) {
  std::vector<std::string> names;
  for (const auto& n : b.graph()->nodes()) names.push_back(n->name + ":" + n->op());
  return names;
}

TEST(ApplyOp, NamesTheNodeAndItsHostOperandsAsTf) {
  FuncGraphBuilder b("f");
  BuildScope scope(b);
  Tensor x = b.add_placeholder("x", DType::kFloat32, PartialShape{4});
  apply_op("AddV2", {Value(x), Value(x)}, {}, "foo");
  Tensor r = apply_op("AddV2", {Value(x), Value(2.0)}, {}, "foo").at(0);
  apply_op("Exp", {Value(x)});
  EXPECT_EQ(r.dtype(), DType::kFloat32);  // the host 2.0 took x's dtype
  EXPECT_THAT(node_names(b), ElementsAre("x:Placeholder", "foo:AddV2", "foo_1/y:Const",
                                         "foo_1:AddV2", "Exp:Exp"));
}

TEST(ApplyOp, ListInputItemsAreNamedByPosition) {
  // tf.concat([x, [n], 7], 0) with n a tensor: the autopacked item is "concat/values_1".
  FuncGraphBuilder b("f");
  BuildScope scope(b);
  Tensor x = b.add_placeholder("x", DType::kInt32, PartialShape{1});
  Tensor n = b.add_placeholder("n", DType::kInt32, PartialShape(std::vector<int64_t>{}));
  ValueList items{Value(x), Value::list({Value(n)}), Value::list({Value(7)})};
  Tensor c = apply_op("ConcatV2", {Value::list(items), Value(0)}, {}, "concat").at(0);
  EXPECT_EQ(c.shape(), (PartialShape{3}));
  EXPECT_THAT(node_names(b),
              ElementsAre("x:Placeholder", "n:Placeholder", "concat/values_1:Pack",
                          "concat/values_2:Const", "concat/axis:Const", "concat:ConcatV2"));
}

TEST(ApplyOp, GraphDtypeMismatchIsTfsTypeError) {
  // tf.raw_ops.AddV2(x=1, y=float_tensor) in a tf.function: the host 1 fixes T to int32 first.
  FuncGraphBuilder b("f");
  BuildScope scope(b);
  Tensor y = b.add_placeholder("y", DType::kFloat32, PartialShape(std::vector<int64_t>{}));
  try {
    apply_op("AddV2", {Value(1), Value(y)});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    EXPECT_STREQ(e.what(),
                 "Input 'y' of 'AddV2' Op has type float32 that does not match type int32 of "
                 "argument 'x'.");
  }
}

TEST(ApplyOp, EagerlyATensorInputFixesTheDtype) {
  // Eagerly TF's fast path takes T from the tensor: AddV2(x=1, y=2.0) is 3.0.
  Tensor r = apply_op("AddV2", {Value(1), Value(Tensor::scalar(2.0f))}).at(0);
  EXPECT_EQ(r.dtype(), DType::kFloat32);
  EXPECT_EQ(r.item<double>(), 3.0);
}

TEST(ApplyOp, EagerErrorEndsWithTheGivenName) {
  // tf.nn.softmax(tf.constant(1.0), name="sm"): TF's text (which depends on oneDNN) ends
  // "[Op:Softmax] name: sm" on every machine.
  try {
    apply_op("Softmax", {Value(Tensor::scalar(1.0f))}, {}, "sm");
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_THAT(msg, ::testing::EndsWith("[Op:Softmax] name: sm"));
  }
}

TEST(WrapperName, RenamesTheFrontEndsNodeOnce) {
  // tf.add(x, 2.0, name="foo") then tf.add(x, 2.0): "foo" with "foo/y", then the default "add".
  FuncGraphBuilder b("f");
  BuildScope scope(b);
  Tensor x = b.add_placeholder("x", DType::kFloat32, PartialShape{4});
  {
    WrapperName w("add", "foo");
    add(Value(x), Value(2.0));
  }
  add(Value(x), Value(2.0));
  EXPECT_THAT(node_names(b), ElementsAre("x:Placeholder", "foo/y:Const", "foo:AddV2",
                                         "add/y:Const", "add:AddV2"));
}

}  // namespace
}  // namespace tfs
