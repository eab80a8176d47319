// TensorList ops (DT_VARIANT) eagerly and in graphs. Expected values are worked out by hand; the
// error texts and node names are TF 2.21's, as its eager raw_ops and tf.function graphs print
// them (conformance/autograph covers the AutoGraph loop end to end against TF).
#include "tfscope/ops_list.h"

#include "op_test_util.h"

namespace tfs::testing {
namespace {

using ::testing::ElementsAre;

Tensor from_tensor(const Tensor& t, const Tensor& element_shape) {
  return run1("TensorListFromTensor", {t, element_shape});
}
Tensor get_item(const Tensor& l, int32_t i, const Tensor& element_shape, DType dt) {
  return run1("TensorListGetItem", {l, si32(i), element_shape}, {{"element_dtype", dt}});
}
Tensor reserve(int32_t n, DType dt) {
  return run1("TensorListReserve", {si32(-1), si32(n)}, {{"element_dtype", dt}});
}

TEST(TensorList, FromTensorThenGetItemReadsRows) {
  Tensor l = from_tensor(f32({1, 2, 3, 4, 5, 6}, Shape{2, 3}), i32({3}));
  EXPECT_EQ(l.dtype(), DType::kVariant);
  EXPECT_EQ(l.eager_shape(), Shape{});
  EXPECT_EQ(l.repr(), "<tf.Tensor: shape=(), dtype=variant, value=<TensorList>>");
  EXPECT_EQ(l.str(), "tf.Tensor(<TensorList>, shape=(), dtype=variant)");
  Tensor row1 = get_item(l, 1, i32({3}), DType::kFloat32);
  EXPECT_EQ(row1.eager_shape(), (Shape{3}));
  EXPECT_THAT(values<float>(row1), ElementsAre(4, 5, 6));
  EXPECT_EQ(run1("TensorListLength", {l}).item<int32_t>(), 2);
}

TEST(TensorList, ScalarElementsOfAVector) {
  Tensor l = from_tensor(i32({7, 8, 9}), Tensor::from_vector(std::vector<int32_t>{}, Shape{0}));
  Tensor x = get_item(l, 2, Tensor::from_vector(std::vector<int32_t>{}, Shape{0}), DType::kInt32);
  EXPECT_EQ(x.eager_shape(), Shape{});
  EXPECT_EQ(x.item<int32_t>(), 9);
}

TEST(TensorList, StackIsTheInverseOfFromTensor) {
  Tensor t = f32({1, 2, 3, 4}, Shape{2, 2});
  Tensor back = run1("TensorListStack", {from_tensor(t, i32({2})), i32({2})},
                     {{"element_dtype", DType::kFloat32}});
  EXPECT_EQ(back.eager_shape(), (Shape{2, 2}));
  EXPECT_THAT(values<float>(back), ElementsAre(1, 2, 3, 4));
}

TEST(TensorList, ReservedElementsReadAsZerosOfAKnownShape) {
  Tensor r = reserve(2, DType::kFloat32);
  EXPECT_THAT(values<float>(get_item(r, 0, i32({2}), DType::kFloat32)), ElementsAre(0, 0));
  // SetItem makes a new list; the reserved one is unchanged.
  Tensor s = run1("TensorListSetItem", {r, si32(1), f32({1, 2})});
  Tensor stacked = run1("TensorListStack", {s, si32(-1)}, {{"element_dtype", DType::kFloat32}});
  EXPECT_EQ(stacked.eager_shape(), (Shape{2, 2}));
  EXPECT_THAT(values<float>(stacked), ElementsAre(0, 0, 1, 2));
  EXPECT_THAT(values<float>(get_item(r, 1, i32({2}), DType::kFloat32)), ElementsAre(0, 0));
}

TEST(TensorList, KernelErrorsAreTfs) {
  Tensor l = from_tensor(f32({1, 2, 3, 4}, Shape{2, 2}), i32({2}));
  EXPECT_EQ(
      error_of([&] { get_item(l, 5, i32({2}), DType::kFloat32); }, ErrorKind::kInvalidArgument),
      eager_text("TensorListGetItem", "Trying to access element 5 in a list with 2 elements."));
  EXPECT_EQ(
      error_of([&] { get_item(l, -1, i32({2}), DType::kFloat32); }, ErrorKind::kInvalidArgument),
      eager_text("TensorListGetItem", "Trying to access element -1 in a list with 2 elements."));
  EXPECT_EQ(error_of([&] { get_item(l, 0, i32({2}), DType::kInt32); }, ErrorKind::kInvalidArgument),
            eager_text("TensorListGetItem",
                       "Invalid data types; op elements int32 but list elements float"));
  EXPECT_EQ(
      error_of([&] { from_tensor(Tensor::scalar(1.0f), si32(-1)); }, ErrorKind::kInvalidArgument),
      eager_text("TensorListFromTensor", "Tensor must be at least a vector, but saw shape: []"));
  EXPECT_EQ(error_of(
                [&] {
                  from_tensor(f32({1, 2}, Shape{1, 2}), i32({3}));
                },
                ErrorKind::kInvalidArgument),
            eager_text("TensorListFromTensor",
                       "Specified a list with shape [3] from a tensor with shape [2]"));
  EXPECT_EQ(error_of([&] { reserve(-2, DType::kFloat32); }, ErrorKind::kInvalidArgument),
            eager_text("TensorListReserve",
                       "The num_elements to reserve must be a non negative number, but got -2"));
  Tensor r = reserve(2, DType::kFloat32);
  EXPECT_EQ(
      error_of([&] { get_item(r, 0, si32(-1), DType::kFloat32); }, ErrorKind::kInvalidArgument),
      eager_text("TensorListGetItem",
                 "Trying to read an uninitialized tensor but element_shape is not fully "
                 "defined: <unknown> and no list element is set."));
  EXPECT_EQ(error_of(
                [&] {
                  get_item(r, 0, i32({-1, 2}), DType::kFloat32);
                },
                ErrorKind::kInvalidArgument),
            eager_text("TensorListGetItem",
                       "Trying to read an uninitialized tensor but element_shape is not fully "
                       "defined: [?,2] and no list element is set."));
}

TEST(TensorList, ShapeFunctions) {
  EXPECT_EQ(infer1("TensorListFromTensor", {In(PartialShape{-1, 3}), In(i32({3}))}),
            PartialShape(std::vector<int64_t>{}));
  PartialShape handle(std::vector<int64_t>{});
  EXPECT_EQ(infer1("TensorListGetItem",
                   {In(handle, DType::kVariant), In(handle, DType::kInt32), In(i32({3}))},
                   {{"element_dtype", DType::kFloat32}}),
            (PartialShape{3}));
  EXPECT_EQ(infer1("TensorListGetItem",
                   {In(handle, DType::kVariant), In(handle, DType::kInt32), In(si32(-1))},
                   {{"element_dtype", DType::kFloat32}}),
            PartialShape());
  EXPECT_EQ(infer1("TensorListStack", {In(handle, DType::kVariant), In(i32({2}))},
                   {{"element_dtype", DType::kFloat32}, {"num_elements", int64_t{4}}}),
            (PartialShape{4, 2}));
}

}  // namespace
}  // namespace tfs::testing
