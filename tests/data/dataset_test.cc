// Datasets through the C++ front end: element values and cardinalities worked out by hand, and
// shuffle orders recorded from TF 2.21 (tf.data.Dataset.range(n).shuffle(b, seed=s) without a
// global seed runs ShuffleDatasetV3 with seed 87654321, seed2 s).
#include "tfscope/data.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tfscope/errors.h"
#include "tfscope/ops.h"

namespace tfs::data {
namespace {

std::vector<int64_t> ints(const Dataset& ds) {
  std::vector<int64_t> out;
  Iterator it = ds.make_iterator();
  Element e;
  while (it.next(e)) out.push_back(e.at(0).data<int64_t>()[0]);
  return out;
}

Dataset range(int64_t n) {
  return Dataset::range(Value(int64_t{0}), Value(n), Value(int64_t{1}));
}

// An eager iterator resource (TF's OwnedIterator): read directly, and by an eager
// IteratorGetNext op on the same handle, it hands out one sequence; the end is nullopt for the
// direct read and TF's OutOfRange "End of sequence" for the op.
TEST(Dataset, EagerIteratorResourceIsOnePosition) {
  Dataset ds = range(3);
  Tensor handle = ds.make_graph_iterator();
  ASSERT_TRUE(handle.is_eager());
  auto first = Dataset::eager_iterator_next(handle);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->at(0).data<int64_t>()[0], 0);
  EXPECT_EQ(Dataset::iterator_get_next(handle, ds.element_specs()).at(0).data<int64_t>()[0], 1);
  EXPECT_EQ(Dataset::eager_iterator_next(handle)->at(0).data<int64_t>()[0], 2);
  EXPECT_FALSE(Dataset::eager_iterator_next(handle));
  try {
    Dataset::iterator_get_next(handle, ds.element_specs());
    FAIL() << "no error past the end";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfRange);
    EXPECT_NE(std::string(e.what()).find("End of sequence"), std::string::npos);
  }
  EXPECT_THROW(Dataset::eager_iterator_next(ds.variant_tensor()), Error);
}

TEST(Dataset, RangeAndItsCardinality) {
  EXPECT_EQ(ints(range(4)), (std::vector<int64_t>{0, 1, 2, 3}));
  Dataset down = Dataset::range(Value(int64_t{10}), Value(int64_t{1}), Value(int64_t{-4}));
  EXPECT_EQ(ints(down), (std::vector<int64_t>{10, 6, 2}));
  EXPECT_EQ(down.cardinality(), 3);
  EXPECT_EQ(Dataset::range(Value(int64_t{5}), Value(int64_t{5}), Value(int64_t{1})).cardinality(),
            0);
}

TEST(Dataset, PassThroughTransformations) {
  EXPECT_EQ(ints(range(10).skip(Value(int64_t{3})).take(Value(int64_t{4}))),
            (std::vector<int64_t>{3, 4, 5, 6}));
  EXPECT_EQ(ints(range(3).repeat(Value(int64_t{2}))), (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(range(3).repeat().cardinality(), kInfiniteCardinality);
  EXPECT_EQ(range(3).repeat().take(Value(int64_t{7})).cardinality(), 7);
  EXPECT_EQ(range(3).skip(Value(int64_t{-1})).cardinality(), 0);
  EXPECT_EQ(ints(range(3).repeat().take(Value(int64_t{5}))), (std::vector<int64_t>{0, 1, 2, 0, 1}));
  EXPECT_EQ(ints(range(4).prefetch(Value(int64_t{2})).cache()), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(Dataset, BatchAndUnbatch) {
  Dataset b = range(7).batch(Value(int64_t{3}));
  EXPECT_EQ(b.cardinality(), 3);
  EXPECT_FALSE(b.element_specs()[0].shape.dim(0) >= 0);  // (None,): the last batch is short
  Iterator it = b.make_iterator();
  Element e;
  std::vector<std::vector<int64_t>> batches;
  while (it.next(e)) batches.push_back(e[0].to_vector<int64_t>());
  EXPECT_EQ(batches, (std::vector<std::vector<int64_t>>{{0, 1, 2}, {3, 4, 5}, {6}}));
  Dataset full = range(7).batch(Value(int64_t{3}), true);
  EXPECT_EQ(full.cardinality(), 2);
  EXPECT_EQ(full.element_specs()[0].shape.dim(0), 3);
  EXPECT_EQ(ints(full.unbatch()), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(full.unbatch().cardinality(), 6);
}

TEST(Dataset, SlicesZipAndEnumerate) {
  EXPECT_EQ(ints(Dataset::zip({range(3), range(2)})), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(Dataset::zip({range(3), range(2)}).cardinality(), 2);
  EXPECT_EQ(Dataset::zip({range(3), range(2).repeat()}).cardinality(), 3);
  Dataset rows =
      Dataset::from_tensor_slices({Tensor::from_vector<int32_t>({1, 2, 3, 4}, Shape{2, 2})});
  EXPECT_EQ(rows.cardinality(), 2);
  EXPECT_EQ(rows.element_specs()[0].shape.str(), "(2,)");
  Iterator it = rows.unbatch().batch(Value(int64_t{3})).make_iterator();
  Element e;
  ASSERT_TRUE(it.next(e));
  EXPECT_EQ(e[0].to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3}));
  ASSERT_TRUE(it.next(e));
  EXPECT_EQ(e[0].to_vector<int32_t>(), (std::vector<int32_t>{4}));
  EXPECT_FALSE(it.next(e));
  Iterator en = rows.enumerate(Value(int64_t{5})).make_iterator();
  ASSERT_TRUE(en.next(e));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].data<int64_t>()[0], 5);
  EXPECT_EQ(e[1].to_vector<int32_t>(), (std::vector<int32_t>{1, 2}));
}

TEST(Dataset, ShuffleIsTFsOrder) {
  EXPECT_EQ(ints(range(10).shuffle(Value(int64_t{4}), 87654321, 7)),
            (std::vector<int64_t>{0, 4, 2, 3, 5, 6, 1, 8, 7, 9}));
  Dataset ds = range(6).shuffle(Value(int64_t{3}), 87654321, 7);
  EXPECT_EQ(ints(ds), (std::vector<int64_t>{1, 2, 0, 3, 5, 4}));
  EXPECT_EQ(ints(ds), (std::vector<int64_t>{1, 0, 3, 2, 4, 5}));  // reshuffled
  EXPECT_EQ(ints(range(6).shuffle(Value(int64_t{3}), 87654321, 7).repeat(Value(int64_t{2}))),
            (std::vector<int64_t>{1, 2, 0, 3, 5, 4, 1, 0, 3, 2, 4, 5}));
  EXPECT_EQ(ints(range(6).shuffle(Value(int64_t{3}), 87654321, 7, false).repeat(Value(int64_t{2}))),
            (std::vector<int64_t>{0, 2, 3, 4, 1, 5, 0, 2, 3, 4, 1, 5}));
  const std::vector<int64_t> tf_e = {
      80, 91, 29, 64, 86, 63, 5,  42, 7,  56, 6,  83, 20, 14, 72, 2,  33, 65, 77, 34,
      31, 19, 15, 36, 78, 22, 38, 8,  97, 75, 12, 92, 99, 45, 53, 47, 93, 85, 43, 46,
      51, 94, 4,  17, 35, 26, 24, 37, 49, 81, 21, 67, 88, 9,  0,  52, 61, 90, 95, 96,
      69, 57, 76, 82, 70, 68, 50, 59, 23, 25, 3,  39, 58, 55, 98, 84, 30, 74, 16, 73,
      32, 27, 11, 60, 44, 1,  87, 54, 18, 62, 41, 40, 48, 66, 28, 13, 79, 89, 10, 71};
  EXPECT_EQ(ints(range(100).shuffle(Value(int64_t{1000}), 87654321, 123)), tf_e);
}

// Elements [1, 2] then [3], as from_generator(output_signature=TensorSpec([None], int32)).
class TwoVectors : public IteratorBase {
 public:
  bool get_next(Element& out) override {
    if (n_ == 2) return false;
    out.push_back(n_++ == 0 ? Tensor::from_vector<int32_t>({1, 2})
                            : Tensor::from_vector<int32_t>({3}));
    return true;
  }

 private:
  int n_ = 0;
};

std::string error_of(const std::function<void()>& f, ErrorKind kind) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind);
    return e.what();
  }
  return "no error";
}

TEST(Dataset, ErrorsAreTFs) {
  Dataset ds = Dataset::from_source([] { return std::make_unique<TwoVectors>(); },
                                    {TensorSpec(PartialShape({-1}), DType::kInt32)})
                   .batch(Value(int64_t{2}));
  Iterator it = ds.make_iterator();
  EXPECT_EQ(error_of([&] { it.next(); }, ErrorKind::kInvalidArgument),
            "{{function_node __wrapped__IteratorGetNext_output_types_1_device_/job:localhost/"
            "replica:0/task:0/device:CPU:0}} Cannot batch tensors with different shapes in "
            "component 0. First element had shape [2] and element 1 had shape [1]. "
            "[Op:IteratorGetNext] name: ");
  EXPECT_EQ(error_of([] { range(3).batch(Value(int64_t{0})); }, ErrorKind::kInvalidArgument),
            "{{function_node __wrapped__BatchDatasetV2_device_/job:localhost/replica:0/task:0/"
            "device:CPU:0}} Batch size must be greater than zero. [Op:BatchDatasetV2] name: ");
  EXPECT_EQ(
      error_of([] { range(3).shuffle(Value(int64_t{0}), 1, 2); }, ErrorKind::kInvalidArgument),
      "{{function_node __wrapped__ShuffleDatasetV3_device_/job:localhost/replica:0/task:0/"
      "device:CPU:0}} buffer_size must be greater than zero or UNKNOWN_CARDINALITY "
      "[Op:ShuffleDatasetV3] name: ");
  EXPECT_EQ(
      error_of([] { Dataset::range(Value(int64_t{0}), Value(int64_t{3}), Value(int64_t{0})); },
               ErrorKind::kInvalidArgument),
      "{{function_node __wrapped__RangeDataset_device_/job:localhost/replica:0/task:0/"
      "device:CPU:0}} step must be a non-zero integer. [Op:RangeDataset] name: ");
}

}  // namespace
}  // namespace tfs::data
