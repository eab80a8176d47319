// complex64/complex128: TF 2.21's bits for the complex kernels (values recorded from TF 2.21 on
// the inputs below; conformance case ops_complex compares thousands more live).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "op_test_util.h"
#include "tfscope/complex.h"

namespace tfs::testing {
namespace {

Tensor c64(const std::vector<complex64>& v) {
  Tensor t = Tensor::empty(kComplex64, Shape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) t.data<complex64>()[i] = v[i];
  return t;
}

complex64 bits(uint32_t re, uint32_t im) {
  return {std::bit_cast<float>(re), std::bit_cast<float>(im)};
}

std::vector<uint32_t> bits_of(const Tensor& t) {
  std::vector<uint32_t> out;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    out.push_back(std::bit_cast<uint32_t>(t.data<complex64>()[i].real()));
    out.push_back(std::bit_cast<uint32_t>(t.data<complex64>()[i].imag()));
  }
  return out;
}

TEST(ComplexDivTest, PacketsAndTheRemainderDivideAsTFDoes) {
  // TF 2.21 divides this pair to -7563.4985 + 1802.6841i when it is the only element (the
  // scalar path) and to -7563.498 + 1802.6841i inside a packet of four.
  const complex64 x = bits(0x3da1210a, 0x384cd2e9), y = bits(0xb7251cf5, 0xb61dd872);
  EXPECT_EQ(bits_of(run1("RealDiv", {c64({x}), c64({y})})),
            (std::vector<uint32_t>{0xc5ec5bfe, 0x44e155e4}));
  EXPECT_EQ(bits_of(run1("RealDiv", {c64({x, x, x, x, x}), c64({y, y, y, y, y})})),
            (std::vector<uint32_t>{0xc5ec5bfc, 0x44e155e4, 0xc5ec5bfc, 0x44e155e4, 0xc5ec5bfc,
                                   0x44e155e4, 0xc5ec5bfc, 0x44e155e4, 0xc5ec5bfe, 0x44e155e4}));
}

TEST(ComplexTest, ArithmeticAndParts) {
  const Tensor z = c64({{3, 4}, {-1, -2}});
  // (3+4i)^2 = -7+24i, (-1-2i)^2 = -3+4i; |3+4i| = 5; conj flips the imaginary sign.
  Tensor sq = run1("Mul", {z, z});
  EXPECT_EQ(sq.data<complex64>()[0], complex64(-7, 24));
  EXPECT_EQ(sq.data<complex64>()[1], complex64(-3, 4));
  EXPECT_EQ(values<float>(run1("ComplexAbs", {z}, {{"Tout", DType::kFloat32}}))[0], 5.0f);
  EXPECT_EQ(run1("Conj", {z}).data<complex64>()[1], complex64(-1, 2));
  EXPECT_EQ(values<float>(run1("Imag", {z}, {{"Tout", DType::kFloat32}})),
            (std::vector<float>{4, -2}));
  Tensor made = run1("Complex", {f32({1, 2}), f32({3})}, {{"Tout", kComplex64}});
  EXPECT_EQ(made.data<complex64>()[1], complex64(2, 3));
  // Cast to a real dtype keeps the real part; from a real dtype the imaginary part is 0.
  EXPECT_EQ(values<int32_t>(run1("Cast", {z}, {{"SrcT", kComplex64}, {"DstT", DType::kInt32}})),
            (std::vector<int32_t>{3, -1}));
  Tensor back = run1("Cast", {f32({1.5f})}, {{"SrcT", DType::kFloat32}, {"DstT", kComplex128}});
  EXPECT_EQ(back.data<complex128>()[0], complex128(1.5, 0));
}

TEST(ComplexTest, OpsWithoutComplexKernelsRejectTheDtype) {
  // Relu's T excludes complex in TF; the eager error names the op.
  EXPECT_THROW(run1("Relu", {c64({{1, 1}})}), Error);
  EXPECT_EQ(dtype_name(kComplex64), "complex64");
}

}  // namespace
}  // namespace tfs::testing
