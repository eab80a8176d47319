// The stateful random ops and TF's seed rules. Every expected number below was recorded from
// TensorFlow 2.21 (tf.raw_ops / tf.random on CPU) with the same seeds; floats are bit-exact.
#include <gtest/gtest.h>

#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using testing::i32;
using testing::i64;
using testing::run1;
using testing::si32;
using testing::values;

// Each test starts from no global seed and fresh kernels.
class RandomTest : public ::testing::Test {
 protected:
  void SetUp() override { set_random_seed(std::nullopt); }
  void TearDown() override { set_random_seed(std::nullopt); }
};

Tensor uniform(const std::vector<int32_t>& shape, DType dtype, int64_t seed, int64_t seed2) {
  return run1("RandomUniform", {i32(shape)}, {{"dtype", dtype}, {"seed", seed}, {"seed2", seed2}});
}

TEST_F(RandomTest, RandomUniformFloatMatchesTF) {
  EXPECT_EQ(values<float>(uniform({5}, DType::kFloat32, 42, 1)),
            (std::vector<float>{0.150128484f, 0.639925361f, 0.817877769f, 0.345721722f,
                                0.996619344f}));
}

TEST_F(RandomTest, RandomUniformContinuesOneGeneratorPerOpAndSeeds) {
  // Eager ops with the same attrs share a kernel (TF's kernel cache): the second call starts
  // 256 blocks per element after the first.
  uniform({5}, DType::kFloat32, 42, 1);
  EXPECT_EQ(values<float>(uniform({5}, DType::kFloat32, 42, 1)),
            (std::vector<float>{0.791069269f, 0.997964144f, 0.612613559f, 0.561774492f,
                                0.5208143f}));
}

TEST_F(RandomTest, SetSeedRestartsTheKernels) {
  uniform({5}, DType::kFloat32, 42, 1);
  set_random_seed(42);
  EXPECT_EQ(values<float>(uniform({3}, DType::kFloat32, 42, 1)),
            (std::vector<float>{0.150128484f, 0.639925361f, 0.817877769f}));
}

TEST_F(RandomTest, RandomUniformDouble) {
  EXPECT_EQ(values<double>(uniform({3}, DType::kFloat64, 42, 1)),
            (std::vector<double>{0.20102799057946608, 0.54302283440850996, 0.97295569561706419}));
}

TEST_F(RandomTest, SeedsAreReadAsUint64) {
  EXPECT_EQ(values<float>(uniform({2}, DType::kFloat32, (int64_t{1} << 40) + 5, -3)),
            (std::vector<float>{0.49474442f, 0.963221431f}));
}

TEST_F(RandomTest, RandomStandardNormalFloatAndDouble) {
  AttrMap f{{"dtype", DType::kFloat32}, {"seed", int64_t{42}}, {"seed2", int64_t{2}}};
  EXPECT_EQ(values<float>(run1("RandomStandardNormal", {i32({5})}, f)),
            (std::vector<float>{0.119353838f, -0.101384878f, 0.529117227f, 0.0545007437f,
                                0.546910644f}));
  AttrMap d{{"dtype", DType::kFloat64}, {"seed", int64_t{42}}, {"seed2", int64_t{2}}};
  EXPECT_EQ(values<double>(run1("RandomStandardNormal", {i32({3})}, d)),
            (std::vector<double>{-0.1543252717394975, 0.42585352367877238, 0.13449239845059224}));
}

TEST_F(RandomTest, RandomUniformIntInt32) {
  AttrMap a{{"seed", int64_t{42}}, {"seed2", int64_t{3}}};
  EXPECT_EQ(values<int32_t>(run1("RandomUniformInt", {i32({6}), si32(-3), si32(1000)}, a)),
            (std::vector<int32_t>{432, 142, 238, 642, 734, 639}));
}

TEST_F(RandomTest, RandomUniformIntFullInt32Range) {
  AttrMap a{{"seed", int64_t{7}}, {"seed2", int64_t{8}}};
  Tensor out = run1("RandomUniformInt", {i32({4}), si32(INT32_MIN), si32(INT32_MAX)}, a);
  EXPECT_EQ(values<int32_t>(out),
            (std::vector<int32_t>{572661198, -1655329460, -1918422161, -961194476}));
}

TEST_F(RandomTest, RandomUniformIntInt64TakesTwoWordsPerValue) {
  AttrMap a{{"seed", int64_t{42}}, {"seed2", int64_t{3}}};
  Tensor out = run1("RandomUniformInt",
                    {i32({3}), Tensor::scalar(int64_t{-5}), Tensor::scalar(int64_t{1} << 40)}, a);
  EXPECT_EQ(values<int64_t>(out),
            (std::vector<int64_t>{622905999355, 857753724045, 667952678594}));
}

TEST_F(RandomTest, RandomUniformIntNeedsAnIncreasingRange) {
  AttrMap a{{"seed", int64_t{4}}, {"seed2", int64_t{4}}};
  EXPECT_EQ(testing::error_of([&] { run1("RandomUniformInt", {i32({3}), si32(5), si32(5)}, a); },
                              ErrorKind::kInvalidArgument),
            testing::eager_text("RandomUniformInt", "Need minval < maxval, got 5 >= 5"));
}

TEST_F(RandomTest, GetSeedWithOnlyAnOpSeedUsesTheDefaultGraphSeed) {
  EXPECT_EQ(get_random_seed(9), (std::pair<int64_t, int64_t>{87654321, 9}));
  EXPECT_EQ(get_random_seed(std::nullopt), (std::pair<int64_t, int64_t>{0, 0}));
}

TEST_F(RandomTest, GetSeedAvoidsZeroZero) {
  set_random_seed(0);
  EXPECT_EQ(get_random_seed(0), (std::pair<int64_t, int64_t>{0, 2147483647}));
}

TEST_F(RandomTest, GetSeedTruncatesModuloMaxInt32) {
  set_random_seed(-5);
  EXPECT_EQ(get_random_seed(int64_t{1} << 33),
            (std::pair<int64_t, int64_t>{2147483642, 4}));
}

TEST_F(RandomTest, EagerOpSeedsComeFromPythonsRandomSeededWithTheGlobalSeed) {
  // random.Random(42).randint(0, 2**31 - 1), three times.
  set_random_seed(42);
  EXPECT_EQ(get_random_seed(std::nullopt).second, 478163327);
  EXPECT_EQ(get_random_seed(std::nullopt).second, 107420369);
  EXPECT_EQ(get_random_seed(std::nullopt).second, 1181241943);
  set_random_seed(42);
  EXPECT_EQ(get_random_seed(std::nullopt).second, 478163327);
}

TEST_F(RandomTest, FrontEndsWithGlobalSeedOnly) {
  set_random_seed(42);
  EXPECT_EQ(values<float>(random_uniform({2})), (std::vector<float>{0.6645621061325073f,
                                                                   0.44100677967071533f}));
  EXPECT_EQ(values<float>(random_uniform({2})), (std::vector<float>{0.6878912448883057f,
                                                                   0.48447883129119873f}));
}

TEST_F(RandomTest, FrontEndsWithBigAndNegativeGlobalSeeds) {
  set_random_seed(-5);
  EXPECT_EQ(values<float>(random_uniform({2})), (std::vector<float>{0.570309281f, 0.923796177f}));
  set_random_seed((int64_t{1} << 33) + 1);
  EXPECT_EQ(values<float>(random_uniform({2})), (std::vector<float>{0.463715672f, 0.838523984f}));
}

TEST_F(RandomTest, FrontEndsApplyRangeAndMoments) {
  set_random_seed(42);
  EXPECT_EQ(values<float>(random_uniform({3}, 2.0, 5.0, DType::kFloat32, 9)),
            (std::vector<float>{4.38822222f, 3.49447346f, 4.01723242f}));
  EXPECT_EQ(values<float>(random_normal({3}, 1.0, 2.0, DType::kFloat32, 9)),
            (std::vector<float>{1.0156337f, -0.35065186f, 2.57894421f}));
  EXPECT_EQ(values<int32_t>(random_uniform({4}, 0, 10, DType::kInt32, 3)),
            (std::vector<int32_t>{0, 7, 1, 5}));
}

TEST_F(RandomTest, FrontEndWithOnlyAnOpSeed) {
  EXPECT_EQ(values<float>(random_uniform({2}, 0, Value(), DType::kFloat32, 9)),
            (std::vector<float>{0.454905629f, 0.313977361f}));
}

TEST_F(RandomTest, IntegerUniformNeedsMaxval) {
  EXPECT_EQ(testing::error_of([] { random_uniform({2}, 0, Value(), DType::kInt32, 1); },
                              ErrorKind::kValueError),
            "Must specify maxval for integer dtype tf.int32");
}

TEST_F(RandomTest, ShapeFunctionsTakeTheShapeValue) {
  EXPECT_EQ(testing::infer("RandomUniform", {testing::In(i32({2, 3}))},
                           {{"dtype", DType::kFloat32}, {"seed", int64_t{0}}, {"seed2", int64_t{0}}})[0],
            PartialShape({2, 3}));
  EXPECT_EQ(testing::infer("RandomUniformInt",
                           {testing::In(i64({4})), testing::In(si32(0)), testing::In(si32(3))},
                           {{"seed", int64_t{0}}, {"seed2", int64_t{0}}})[0],
            PartialShape({4}));
}

}  // namespace
}  // namespace tfs
