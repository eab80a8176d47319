// Expected strings were printed by TensorFlow 2.21 (str(t), repr(t), tf.print(t)).
#include <gtest/gtest.h>

#include <cmath>

#include "tfscope/errors.h"
#include "tfscope/format.h"
#include "tfscope/tensor.h"

namespace tfs {
namespace {

Tensor f32(std::vector<float> v) { return Tensor::from_vector(v); }

TEST(TensorStr, IntVector) {
  EXPECT_EQ(Tensor::from_vector<int32_t>({1, 2}).str(), "tf.Tensor([1 2], shape=(2,), dtype=int32)");
}

TEST(TensorStr, FloatVectorsPadLikeNumpy) {
  EXPECT_EQ(f32({1.5f, 2.0f}).str(), "tf.Tensor([1.5 2. ], shape=(2,), dtype=float32)");
  EXPECT_EQ(f32({0.1f, 0.25f, 3.0f}).numpy_str(), "[0.1  0.25 3.  ]");
  EXPECT_EQ(f32({-1.5f, 2.0f}).numpy_str(), "[-1.5  2. ]");
  EXPECT_EQ(f32({100.0f, 0.5f}).numpy_str(), "[100.    0.5]");
  EXPECT_EQ(f32({1.0f / 3, 2.0f / 3}).numpy_str(), "[0.33333334 0.6666667 ]");
  EXPECT_EQ(f32({0.0f, -0.0f}).numpy_str(), "[ 0. -0.]");
  EXPECT_EQ(f32({1.0f, NAN, INFINITY}).numpy_str(), "[ 1. nan inf]");
}

TEST(TensorStr, FloatVectorsSwitchToExponentForm) {
  EXPECT_EQ(f32({1e-5f, 1.0f}).numpy_str(), "[1.e-05 1.e+00]");
  EXPECT_EQ(f32({1e9f, 1.0f}).numpy_str(), "[1.e+09 1.e+00]");
  EXPECT_EQ(f32({123456.789f, 1.0f}).numpy_str(), "[1.2345679e+05 1.0000000e+00]");
}

TEST(TensorStr, ScalarsAndMatrices) {
  EXPECT_EQ(Tensor::scalar(2.0f).str(), "tf.Tensor(2.0, shape=(), dtype=float32)");
  EXPECT_EQ(Tensor::from_vector<double>({1.5, 2, 3, 4}, Shape{2, 2}).str(),
            "tf.Tensor(\n[[1.5 2. ]\n [3.  4. ]], shape=(2, 2), dtype=float64)");
  EXPECT_EQ(Tensor::from_bools({true, false}, Shape{2}).str(),
            "tf.Tensor([ True False], shape=(2,), dtype=bool)");
  EXPECT_EQ(Tensor::strings({"a", "bc"}, Shape{2}).str(),
            "tf.Tensor([b'a' b'bc'], shape=(2,), dtype=string)");
}

TEST(TensorStr, LongVectorsAreSummarized) {
  std::vector<int64_t> v(1200);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i);
  EXPECT_EQ(Tensor::from_vector(v).str(),
            "tf.Tensor([   0    1    2 ... 1197 1198 1199], shape=(1200,), dtype=int64)");
  std::vector<int32_t> w(20);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int32_t>(i);
  EXPECT_EQ(Tensor::from_vector(w).str(),
            "tf.Tensor([ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19], shape=(20,), "
            "dtype=int32)");
}

TEST(TensorRepr, IncludesNumpyArray) {
  EXPECT_EQ(Tensor::from_vector<int32_t>({1, 2}).repr(),
            "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>");
  EXPECT_EQ(Tensor::from_vector<int64_t>({1, 2}).repr(),
            "<tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 2])>");
  EXPECT_EQ(f32({100.0f, 0.5f}).repr(),
            "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([100. ,   0.5], dtype=float32)>");
  EXPECT_EQ(Tensor::scalar(2.0f).repr(), "<tf.Tensor: shape=(), dtype=float32, numpy=2.0>");
  std::vector<int64_t> v(30);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>(i);
  EXPECT_EQ(Tensor::from_vector(v, Shape{3, 10}).repr(),
            "<tf.Tensor: shape=(3, 10), dtype=int64, numpy=\n"
            "array([[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9],\n"
            "       [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],\n"
            "       [20, 21, 22, 23, 24, 25, 26, 27, 28, 29]])>");
  EXPECT_EQ(Tensor::from_vector<float>({1.5f, 2, 3, 4}, Shape{2, 2}).repr(),
            "<tf.Tensor: shape=(2, 2), dtype=float32, numpy=\narray([[1.5, 2. ],\n       [3. , 4. "
            "]], dtype=float32)>");
}

TEST(TfSummarize, FormatsAsTfPrint) {
  EXPECT_EQ(format_tf_summarize(f32({1.5f, 2.0f}), 3), "[1.5 2]");
  EXPECT_EQ(format_tf_summarize(f32({1.0f / 3, 2.0f / 3}), 3), "[0.333333343 0.666666687]");
  EXPECT_EQ(format_tf_summarize(f32({1e-5f, 1.0f}), 3), "[1e-05 1]");
  EXPECT_EQ(format_tf_summarize(f32({1.123456789f, 1e-7f, 1e10f}), 3), "[1.12345684 1e-07 1e+10]");
  EXPECT_EQ(format_tf_summarize(Tensor::from_bools({true, false}, Shape{2}), 3), "[1 0]");
  EXPECT_EQ(format_tf_summarize(Tensor::strings({"a", "b"}, Shape{2}), 3), "[\"a\" \"b\"]");
  EXPECT_EQ(format_tf_summarize(Tensor::scalar(2.0f), 3), "2");
  std::vector<int32_t> w(20);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int32_t>(i);
  EXPECT_EQ(format_tf_summarize(Tensor::from_vector(w), 3), "[0 1 2 ... 17 18 19]");
  std::vector<int64_t> m(30);
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<int64_t>(i);
  Tensor mt = Tensor::from_vector(m, Shape{3, 10});
  EXPECT_EQ(format_tf_summarize(mt, 3),
            "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]]");
  EXPECT_EQ(format_tf_summarize(mt, -1),
            "[[0 1 2 3 4 5 6 7 8 9]\n [10 11 12 13 14 15 16 17 18 19]\n [20 21 22 23 24 25 26 27 28 "
            "29]]");
}

TEST(TensorBool, SymbolicRaisesOperatorNotAllowed) {
  Tensor t = Tensor::symbolic(nullptr, reinterpret_cast<Node*>(0x1), 0, DType::kBool, Shape{},
                              "Greater");
  try {
    (void)static_cast<bool>(t);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOperatorNotAllowedInGraph);
    EXPECT_EQ(std::string(e.what()).rfind(
                  "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt "
                  "the following resolutions to the problem: If you are running in Graph mode",
                  0),
              0u);
  }
  EXPECT_EQ(t.str(), "Tensor(\"Greater:0\", shape=(), dtype=bool)");
}

TEST(TensorBool, EagerScalarIsItsValue) {
  EXPECT_TRUE(static_cast<bool>(Tensor::scalar<int32_t>(3)));
  EXPECT_FALSE(static_cast<bool>(Tensor::scalar(0.0f)));
}

}  // namespace
}  // namespace tfs
