#include <gtest/gtest.h>

#include "tfscope/complex.h"
#include "tfscope/dtype.h"
#include "tfscope/shape.h"

namespace tfs {
namespace {

constexpr int64_t U = PartialShape::kUnknown;

TEST(DType, NumbersAreTensorFlowDataTypeValues) {
  EXPECT_EQ(static_cast<int>(DType::kFloat32), 1);
  EXPECT_EQ(static_cast<int>(DType::kInt32), 3);
  EXPECT_EQ(static_cast<int>(DType::kString), 7);
  EXPECT_EQ(static_cast<int>(DType::kInt64), 9);
  EXPECT_EQ(static_cast<int>(DType::kBool), 10);
  EXPECT_EQ(static_cast<int>(DType::kResource), 20);
  // tf.complex64.as_datatype_enum is 8 and tf.complex128's is 18 (TF's types.proto).
  EXPECT_EQ(static_cast<int>(kComplex64), 8);
  EXPECT_EQ(static_cast<int>(kComplex128), 18);
}

TEST(DType, ComplexNamesSizesAndKinds) {
  // TF: repr(tf.complex64) == "tf.complex64", tf.complex64.size == 8, tf.complex128.size == 16,
  // DataTypeString(DT_COMPLEX64) == "complex64"; is_floating/is_integer are false for both.
  EXPECT_EQ(dtype_repr(kComplex64), "tf.complex64");
  EXPECT_EQ(dtype_name(kComplex128), "complex128");
  EXPECT_EQ(dtype_size(kComplex64), 8u);
  EXPECT_EQ(dtype_size(kComplex128), 16u);
  EXPECT_EQ(dtype_from_name("complex64"), kComplex64);
  EXPECT_EQ(dtype_from_name("complex128"), kComplex128);
  EXPECT_EQ(dtype_tf_string(kComplex64), "complex64");
  EXPECT_EQ(dtype_enum_name(kComplex128), "DT_COMPLEX128");
  EXPECT_TRUE(is_complex(kComplex64));
  EXPECT_TRUE(is_complex(kComplex128));
  EXPECT_FALSE(is_complex(DType::kFloat32));
  EXPECT_FALSE(is_floating(kComplex64));
  EXPECT_FALSE(is_integer(kComplex64));
  EXPECT_FALSE(is_numeric(kComplex64));
}

TEST(DType, PrintsAsTensorFlowDoes) {
  EXPECT_EQ(dtype_repr(DType::kInt32), "tf.int32");
  EXPECT_EQ(dtype_name(DType::kFloat64), "float64");
  EXPECT_EQ(dtype_from_name("uint8"), DType::kUInt8);
}

TEST(Shape, PrintsAsPythonTuple) {
  EXPECT_EQ(Shape({}).str(), "()");
  EXPECT_EQ(Shape({2}).str(), "(2,)");
  EXPECT_EQ(Shape({2, 3}).str(), "(2, 3)");
  EXPECT_EQ(PartialShape({U, 3}).str(), "(None, 3)");
  EXPECT_EQ(PartialShape().str(), "<unknown>");
  EXPECT_EQ(PartialShape({U}).as_list_str(), "[None]");
}

TEST(PartialShape, SubtypeFollowsTensorShapeRules) {
  EXPECT_TRUE(PartialShape({2}).is_subtype_of(PartialShape({U})));
  EXPECT_TRUE(PartialShape({2, 2}).is_subtype_of(PartialShape()));
  EXPECT_FALSE(PartialShape({U}).is_subtype_of(PartialShape({2})));
  EXPECT_FALSE(PartialShape({2}).is_subtype_of(PartialShape({2, 1})));
}

TEST(PartialShape, CommonSupertypeRelaxesDimsThenRank) {
  EXPECT_EQ(PartialShape({2}).most_specific_common_supertype(PartialShape({4})), PartialShape({U}));
  EXPECT_EQ(PartialShape({2, 3}).most_specific_common_supertype(PartialShape({4, 3})),
            PartialShape({U, 3}));
  EXPECT_EQ(PartialShape({2}).most_specific_common_supertype(PartialShape({2, 2})), PartialShape());
}

TEST(Broadcast, NumpyRules) {
  EXPECT_EQ(broadcast_shapes(Shape{2, 1}, Shape{3}), (Shape{2, 3}));
  EXPECT_EQ(broadcast_shapes(Shape{}, Shape{4}), (Shape{4}));
  EXPECT_FALSE(broadcast_shapes(Shape{2}, Shape{3}).has_value());
  EXPECT_EQ(*broadcast_shapes(PartialShape({U, 3}), PartialShape({3})), PartialShape({U, 3}));
}

}  // namespace
}  // namespace tfs
