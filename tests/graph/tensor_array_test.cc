// tf.TensorArray's graph form (TensorList ops on DT_VARIANT) as AutoGraph's `for x in tensor`
// builds it: node names as TF 2.21 names them, and a while loop that carries a captured list
// through the executor. The names come from TF's tf.function graph of the same loop.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tfscope/control_flow.h"
#include "tfscope/function.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops_list.h"

namespace tfs {
namespace {

using ::testing::ElementsAre;

// What AutoGraph's `for row in t` builds before and inside the loop, named as TF names it.
TEST(TensorArray, UnstackAndReadBuildTfsNodes) {
  FuncGraphBuilder b("f");
  BuildScope scope(b);
  Tensor t = b.add_placeholder("t", DType::kFloat32, PartialShape{2, 3});
  TensorArrayFlow ta = tensor_array_unstack(tensor_array(DType::kFloat32, Value(2)), t);
  EXPECT_EQ(ta.element_shape, (PartialShape{3}));
  Tensor i = b.add_placeholder("i", DType::kInt32, PartialShape(std::vector<int64_t>{}));
  Tensor row = tensor_array_read(ta, Value(i));
  EXPECT_EQ(row.shape(), (PartialShape{3}));
  std::vector<std::string> names;
  for (const auto& n : b.graph()->nodes()) names.push_back(n->name + ":" + n->op());
  EXPECT_THAT(
      names, ElementsAre("t:Placeholder", "TensorArrayV2/element_shape:Const",
                         "TensorArrayV2/num_elements:Const", "TensorArrayV2:TensorListReserve",
                         "TensorArrayUnstack/TensorListFromTensor/element_shape:Const",
                         "TensorArrayUnstack/TensorListFromTensor:TensorListFromTensor",
                         "i:Placeholder", "TensorArrayV2Read/TensorListGetItem/element_shape:Const",
                         "TensorArrayV2Read/TensorListGetItem:TensorListGetItem"));
}

TEST(TensorArray, ScalarElementShapeIsAnEmptyConst) {
  FuncGraphBuilder b("f");
  BuildScope scope(b);
  Tensor t = b.add_placeholder("t", DType::kInt32, PartialShape{-1});
  TensorArrayFlow ta = tensor_array_unstack(tensor_array(DType::kInt32, Value(3)), t);
  EXPECT_EQ(ta.element_shape, PartialShape(std::vector<int64_t>{}));
  std::vector<std::string> names;
  for (const auto& n : b.graph()->nodes()) names.push_back(n->name);
  EXPECT_THAT(names, ElementsAre("t", "TensorArrayV2/element_shape", "TensorArrayV2/num_elements",
                                 "TensorArrayV2", "TensorArrayUnstack/Const",
                                 "TensorArrayUnstack/TensorListFromTensor"));
}

// sum of the rows of t, one TensorListGetItem per iteration of a While that captures the list.
TEST(TensorArray, AWhileLoopReadsEachRowOfACapturedList) {
  auto f = function("rows", {"t"}, [](Tensor t) {
    TensorArrayFlow ta = tensor_array_unstack(tensor_array(DType::kFloat32, Value(3)), t);
    auto out =
        while_loop([](const std::vector<Tensor>& v) { return less(v[0], Value(int64_t{3})); },
                   [&](const std::vector<Tensor>& v) {
                     Tensor row = tensor_array_read(ta, Value(v[0]));
                     return std::vector<Tensor>{add(v[0], Value(int64_t{1})), add(v[1], row)};
                   },
                   {Tensor::scalar<int32_t>(0), Tensor::from_vector<float>({0, 0})});
    return out[1];
  });
  Tensor r = f->call({Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{3, 2})}).as_tensor();
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{9, 12}));
}

}  // namespace
}  // namespace tfs
