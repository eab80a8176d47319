// The TensorList ops used as a stack (EmptyTensorList, TensorListPushBack, TensorListPopBack,
// TensorListElementShape), the accumulators of while_v2's gradient. Expected values are worked
// out by hand; the error texts are TF 2.21's as its eager raw_ops print them.
#include "tfscope/ops_list.h"

#include "op_test_util.h"

namespace tfs::testing {
namespace {

using ::testing::ElementsAre;

Tensor empty_list(const Tensor& element_shape, int32_t max, DType dt = DType::kFloat32) {
  return run1("EmptyTensorList", {element_shape, si32(max)}, {{"element_dtype", dt}});
}
Tensor push(const Tensor& l, const Tensor& t) {
  return run1("TensorListPushBack", {l, t}, {{"element_dtype", t.dtype()}});
}
std::vector<Tensor> pop(const Tensor& l, DType dt = DType::kFloat32) {
  return run("TensorListPopBack", {l, si32(-1)}, {{"element_dtype", dt}});
}

TEST(TensorListStack, PopsInTheReverseOrderOfPushes) {
  Tensor l = empty_list(i32({2}), -1);
  EXPECT_EQ(run1("TensorListLength", {l}).item<int32_t>(), 0);
  l = push(push(l, f32({1, 2})), f32({3, 4}));
  EXPECT_EQ(run1("TensorListLength", {l}).item<int32_t>(), 2);
  std::vector<Tensor> a = pop(l);
  EXPECT_THAT(values<float>(a[1]), ElementsAre(3, 4));
  std::vector<Tensor> b = pop(a[0]);
  EXPECT_THAT(values<float>(b[1]), ElementsAre(1, 2));
  EXPECT_EQ(run1("TensorListLength", {b[0]}).item<int32_t>(), 0);
  // A list is a value: popping did not change `l`.
  EXPECT_EQ(run1("TensorListLength", {l}).item<int32_t>(), 2);
}

TEST(TensorListStack, ElementShapeIsWhatTheListWasMadeWith) {
  Tensor l = push(empty_list(i32({2, -1}), 3), f32({1, 2, 3, 4}, Shape{2, 2}));
  Tensor s = run1("TensorListElementShape", {l}, {{"shape_type", DType::kInt32}});
  EXPECT_THAT(values<int32_t>(s), ElementsAre(2, -1));
  Tensor u =
      run1("TensorListElementShape", {empty_list(si32(-1), -1)}, {{"shape_type", DType::kInt64}});
  EXPECT_EQ(u.eager_shape(), Shape{});
  EXPECT_EQ(u.item<int64_t>(), -1);
}

TEST(TensorListStack, KernelErrorsAreTfs) {
  Tensor full = push(empty_list(i32({2}), 1), f32({1, 2}));
  EXPECT_EQ(error_of(
                [&] {
                  push(full, f32({1, 2}));
                },
                ErrorKind::kInvalidArgument),
            eager_text("TensorListPushBack",
                       "Tried to push item into a full list list size: 1 max_num_elements: 1"));
  EXPECT_EQ(error_of(
                [&] {
                  push(full, i32({1, 2}));
                },
                ErrorKind::kInvalidArgument),
            eager_text("TensorListPushBack",
                       "Invalid data types; op elements int32 but list elements float"));
  EXPECT_EQ(error_of(
                [&] {
                  push(empty_list(i32({2}), 1), f32({1, 2, 3}));
                },
                ErrorKind::kInvalidArgument),
            eager_text("TensorListPushBack",
                       "Tried to append a tensor with incompatible shape to a list. Op element "
                       "shape: [3] list shape: [2]"));
  EXPECT_EQ(error_of([&] { pop(empty_list(i32({2}), 1)); }, ErrorKind::kInvalidArgument),
            eager_text("TensorListPopBack", "Trying to pop from an empty list."));
  EXPECT_EQ(error_of([&] { pop(full, DType::kInt32); }, ErrorKind::kInvalidArgument),
            eager_text("TensorListPopBack",
                       "Invalid data types; op elements int32 but list elements float"));
  EXPECT_EQ(
      error_of(
          [&] {
            run1("EmptyTensorList", {i32({2}), i32({1})}, {{"element_dtype", DType::kFloat32}});
          },
          ErrorKind::kInvalidArgument),
      eager_text("EmptyTensorList", "max_num_elements expected to be a scalar but got shape: [1]"));
}

}  // namespace
}  // namespace tfs::testing
