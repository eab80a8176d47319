// Math ops against TF. Expected numbers were recorded from TensorFlow 2.21 on CPU (bit-exact
// float32 unless a test says otherwise).
#include <gtest/gtest.h>

#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "op_test_util.h"

namespace tfs {
namespace {

using testing::f32;
using testing::run1;
using testing::values;

// Eigen's packet erfc starts 1/x^2 from the CPU's reciprocal estimate (RCPPS), whose table is
// not specified by the ISA: Intel and AMD CPUs return different estimates, and TF's erfc (so
// gelu) differs in the last bit between them for some inputs. The expectations below that
// depend on it were recorded from TF 2.21 on both kinds; this says which kind this CPU is.
enum class RcpTable { kIntel, kAmd, kOther };
RcpTable rcp_table() {
#if defined(__x86_64__)
  const float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(0x1.18fc6p+5f)));
  if (r == 0x1.d29p-6f) return RcpTable::kIntel;  // Xeon (Emerald Rapids), TF 2.21 recorded
  return RcpTable::kAmd;  // the other recorded kind (AMD EPYC); a third table fails visibly
#else
  return RcpTable::kOther;
#endif
}

float by_rcp_table(float intel, float amd) {
  return rcp_table() == RcpTable::kIntel ? intel : amd;
}

TEST(ErfcTest, WholePacketsAndTheTailRoundAsTFDoes) {
  // The first 8 elements take Eigen's vector path, the last 2 its scalar path: the same input
  // gives 0.00256036012 in a packet and 0.00256036059 in the tail, as in TF.
  Tensor x = f32({2.13271546f, 1.60664773f, 2.46374297f, 5.92648554f, -0.5f, 0.300000012f, -3.0f,
                  9.0f, 2.13271546f, 1.60664773f});
  EXPECT_EQ(
      values<float>(run1("Erfc", {x})),
      (std::vector<float>{0.00256036012f, 0.0230778735f, 0.000493502186f,
                          by_rcp_table(0x1.e2be26p-55f, 0x1.e2be22p-55f), 1.52049994f, 0.671373188f,
                          1.99997795f, 4.13703171e-37f, 0.00256036059f, 0.0230778754f}));
}

TEST(ErfcTest, DoublePacketsOfFourAndTheTail) {
  // Packets of 4 doubles and the scalar tail round differently too; 26.5 is close to underflow.
  Tensor x = testing::f64(
      {2.3066672957379595, 5.4122757743495935, -0.7, 26.5, 2.3066672957379595, 5.4122757743495935});
  EXPECT_EQ(values<double>(run1("Erfc", {x})),
            (std::vector<double>{0.0011058225389012817, 1.9464984616187487e-14, 1.6778011938374187,
                                 2.2109076642637339e-307, 0.0011058225389012815,
                                 1.9464984616187491e-14}));
}

TEST(TanhTest, FloatIsEigensRationalApproximation) {
  // std::tanh gives a different last bit for most of these.
  Tensor x = f32({0.872499824f, 2.13271546f, 4.58993101f, 6.2654047f, -0.118216246f, 0.495936871f,
                  -3.27702594f, 8.5f, 0.872499824f, -4.48649454f});
  EXPECT_EQ(
      values<float>(run1("Tanh", {x})),
      (std::vector<float>{0.702642024f, 0.97229749f, 0.999793947f, 0.999992669f, -0.117668621f,
                          0.45891574f, -0.997155488f, 1.0f, 0.702642024f, -0.999746382f}));
}

TEST(ErfTest, FloatIsEigensRationalApproximation) {
  // std::erf gives a different last bit for each of these.
  Tensor x = f32({0.829224408f, -1.54625559f, 3.41248822f});
  EXPECT_EQ(values<float>(run1("Erf", {x})),
            (std::vector<float>{0.759083986f, -0.971238136f, 0.999998689f}));
}

TEST(GeluTest, ExactIsHalfXTimesErfc) {
  Tensor x = f32({-2.0f, -0.5f, 0.0f, 0.5f, 3.0f});
  EXPECT_EQ(values<float>(gelu(x)),
            (std::vector<float>{-0.0455002636f, -0.154268771f, 0.0f, 0.345731229f, 2.99595022f}));
}

TEST(GeluTest, ExactOnTenElements) {
  Tensor x = f32({-4.0f, -3.11111116f, -2.22222233f, -1.33333337f, -0.444444448f, 0.444444448f,
                  1.33333337f, 2.22222233f, 3.11111116f, 4.0f});
  EXPECT_EQ(values<float>(gelu(x)),
            (std::vector<float>{-0.000126685016f, -0.0028993194f,
                                by_rcp_table(-0x1.de3318p-6f, -0x1.de331ap-6f), -0.121614933f,
                                -0.145938054f, 0.298506409f, 1.21171844f, 2.19303536f, 3.10821176f,
                                3.9998734f}));
}

TEST(GeluTest, ApproximateIsTheTanhForm) {
  Tensor x = f32({-2.0f, -0.5f, 0.0f, 0.5f, 3.0f});
  EXPECT_EQ(values<float>(gelu(x, true)),
            (std::vector<float>{-0.0454022288f, -0.154285997f, 0.0f, 0.345714003f, 2.99636269f}));
}

}  // namespace
}  // namespace tfs
