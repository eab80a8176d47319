// tf.IndexedSlices from the tape (values worked out by hand): a gather of a variable
// (ResourceGather) gives the rows it read, the indices and the variable's shape; two gathers
// concatenate; a gather and a dense use are summed densely; gradient() densifies by
// UnsortedSegmentSum; the sparse kernels (ResourceScatterSub, UnsortedSegmentSum) and their
// errors in TF's words.
#include <gtest/gtest.h>

#include "tfscope/errors.h"
#include "tfscope/indexed_slices.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"
#include "tfscope/ops_sparse.h"
#include "tfscope/tape.h"
#include "tfscope/variable_state.h"

namespace tfs {
namespace {

std::shared_ptr<VariableState> table() {  // [[1,2],[3,4],[5,6]]
  auto v = std::make_shared<VariableState>(DType::kFloat32, PartialShape{3, 2}, "emb:0", true);
  execute("AssignVariableOp",
          {Tensor::resource(v), Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{3, 2})},
          {{"dtype", DType::kFloat32}});
  return v;
}

Value ids(std::vector<int32_t> v) {
  return Value(Tensor::from_vector<int32_t>(v));
}

TEST(GatherGradient, OffAxisZeroAndWithBatchDimsIsDense) {
  // d/dp sum(w * gather(p, ids, axis=1)): column j of each row gets the weights of the outputs
  // that read it (repeated ids sum). p is [2, 3]; ids [2, 0, 2]; w [[1, 2, 3], [4, 5, 6]].
  Tensor p = Tensor::from_vector<float>({0, 0, 0, 0, 0, 0}, Shape{2, 3});
  Tensor w = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  GradientTape tape;
  tape.enter();
  tape.watch(p);
  Tensor y = reduce_sum(multiply(gather(p, Tensor::from_vector<int32_t>({2, 0, 2}), 1, 0), w));
  tape.exit();
  EXPECT_EQ(tape.gradient({y}, {p})[0].to_vector<float>(),
            (std::vector<float>{2, 0, 1 + 3, 5, 0, 4 + 6}));
  // batch_dims=1: row b gathers its own ids [[1, 1], [0, 2]].
  GradientTape t2;
  t2.enter();
  t2.watch(p);
  Tensor z = reduce_sum(multiply(
      gather(p, Tensor::from_vector<int32_t>({1, 1, 0, 2}, Shape{2, 2}), 1, 1),
      Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2})));
  t2.exit();
  EXPECT_EQ(t2.gradient({z}, {p})[0].to_vector<float>(), (std::vector<float>{0, 3, 0, 3, 0, 4}));
}

TEST(SparseGradient, GatherOfAVariableGivesIndexedSlices) {
  auto v = table();
  GradientTape tape;
  tape.enter();
  Tensor y = reduce_sum(multiply(resource_gather(v, ids({2, 0, 2})), Value(3.0)));
  tape.exit();
  auto g = tape.gradient_values({y}, {v});
  ASSERT_TRUE(std::holds_alternative<IndexedSlices>(g[0]));
  const IndexedSlices& s = std::get<IndexedSlices>(g[0]);
  EXPECT_EQ(s.values.eager_shape(), (Shape{3, 2}));
  EXPECT_EQ(s.values.to_vector<float>(), std::vector<float>(6, 3.0f));
  EXPECT_EQ(s.indices.to_vector<int32_t>(), (std::vector<int32_t>{2, 0, 2}));
  EXPECT_EQ(s.dense_shape.to_vector<int32_t>(), (std::vector<int32_t>{3, 2}));
  // Densified: row 2 was read twice.
  EXPECT_EQ(indexed_slices_to_tensor(s).to_vector<float>(), (std::vector<float>{3, 3, 0, 0, 6, 6}));
}

TEST(SparseGradient, TwoGathersConcatenateAndADenseUseSumsDensely) {
  auto v = table();
  {
    GradientTape tape;
    tape.enter();
    Tensor y = add(reduce_sum(resource_gather(v, ids({1}))),
                   reduce_sum(multiply(resource_gather(v, ids({0, 1})), Value(2.0))));
    tape.exit();
    auto g = tape.gradient_values({y}, {v});
    ASSERT_TRUE(std::holds_alternative<IndexedSlices>(g[0]));
    const IndexedSlices& s = std::get<IndexedSlices>(g[0]);
    // The later gather's gradient arrives first (the backward pass runs from the last op).
    std::vector<int32_t> idx = s.indices.to_vector<int32_t>();
    ASSERT_EQ(idx.size(), 3u);
    EXPECT_EQ(indexed_slices_to_tensor(s).to_vector<float>(),
              (std::vector<float>{2, 2, 3, 3, 0, 0}));
  }
  {
    GradientTape tape;
    tape.enter();
    Tensor y = add(reduce_sum(resource_gather(v, ids({2}))), reduce_sum(read_variable(v)));
    tape.exit();
    auto g = tape.gradient_values({y}, {v});
    ASSERT_TRUE(std::holds_alternative<Tensor>(g[0]));
    EXPECT_EQ(std::get<Tensor>(g[0]).to_vector<float>(), (std::vector<float>{1, 1, 1, 1, 2, 2}));
  }
}

TEST(SparseGradient, GradientDensifies) {
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4}, Shape{2, 2});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = reduce_sum(gather(x, Value(Tensor::from_vector<int32_t>({1, 1}))));
  tape.exit();
  Tensor g = tape.gradient({y}, {x})[0];
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{0, 0, 2, 2}));
}

TEST(SparseGradient, ScatterSubGoesThroughTheIndicesInOrder) {
  auto v = table();
  resource_scatter("ResourceScatterSub", v, Tensor::from_vector<int32_t>({2, 0, 2}),
                   Tensor::from_vector<float>({1, 1, 0.5f, 0.5f, 2, 2}, Shape{3, 2}),
                   "ResourceScatterSub");
  EXPECT_EQ(v->read().to_vector<float>(), (std::vector<float>{0.5f, 1.5f, 3, 4, 2, 3}));
  try {
    resource_scatter("ResourceScatterSub", v, Tensor::from_vector<int32_t>({3}),
                     Tensor::from_vector<float>({1, 1}, Shape{1, 2}), "ResourceScatterSub");
    FAIL() << "expected InvalidArgumentError";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("indices[0] = 3 is not in [0, 3)"), std::string::npos);
  }
}

TEST(SparseGradient, UnsortedSegmentSumDropsNegativeIdsAndChecksRange) {
  Tensor data = Tensor::from_vector<float>({1, 2, 3, 4});
  Tensor out = unsorted_segment_sum(data, Tensor::from_vector<int32_t>({0, 2, -1, 0}),
                                    Tensor::scalar<int32_t>(3));
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{5, 0, 2}));
  try {
    unsorted_segment_sum(data, Tensor::from_vector<int32_t>({0, 5, 1, 1}),
                         Tensor::scalar<int32_t>(3));
    FAIL() << "expected InvalidArgumentError";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("segment_ids[1] = 5 is out of range [0, 3)"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace tfs
