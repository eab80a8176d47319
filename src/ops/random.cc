// Stateless random numbers: StatelessRandomUniformV2 and StatelessRandomNormalV2 with TF's
// Philox4x32-10 (alg 1, and alg 3 "auto select", which TF's CPU kernels resolve to Philox).
// The generator, the bits-to-float conversions and Box-Muller are TF's (philox_random.h,
// random_distributions.h), so the same key and counter give the same numbers bit for bit.
//
// TF types key and counter as uint64; tfscope has no uint64 dtype, so they are int64 here and
// their bits are read as uint64.
#include <array>
#include <cmath>
#include <cstring>

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;

// ---- Philox4x32-10 ----

class Philox {
 public:
  using Block = std::array<uint32_t, 4>;

  Philox(uint64_t key, uint64_t c0, uint64_t c1)
      : key_{static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32)},
        counter_{static_cast<uint32_t>(c0), static_cast<uint32_t>(c0 >> 32),
                 static_cast<uint32_t>(c1), static_cast<uint32_t>(c1 >> 32)} {}

  // Ten rounds on the current counter, then the counter moves on by one.
  Block next() {
    Block c = counter_;
    std::array<uint32_t, 2> k = key_;
    for (int round = 0; round < 10; ++round) {
      if (round > 0) {
        k[0] += kW32A;
        k[1] += kW32B;
      }
      c = single_round(c, k);
    }
    skip_one();
    return c;
  }

 private:
  static constexpr uint32_t kW32A = 0x9E3779B9, kW32B = 0xBB67AE85;
  static constexpr uint32_t kM4x32A = 0xD2511F53, kM4x32B = 0xCD9E8D57;

  static Block single_round(const Block& c, const std::array<uint32_t, 2>& k) {
    uint64_t p0 = static_cast<uint64_t>(kM4x32A) * c[0];
    uint64_t p1 = static_cast<uint64_t>(kM4x32B) * c[2];
    uint32_t lo0 = static_cast<uint32_t>(p0), hi0 = static_cast<uint32_t>(p0 >> 32);
    uint32_t lo1 = static_cast<uint32_t>(p1), hi1 = static_cast<uint32_t>(p1 >> 32);
    return {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
  }

  void skip_one() {
    if (++counter_[0] == 0 && ++counter_[1] == 0 && ++counter_[2] == 0) ++counter_[3];
  }

  std::array<uint32_t, 2> key_;
  Block counter_;
};

// [0, 1) from the low 23 bits (TF's Uint32ToFloat).
float uint32_to_float(uint32_t x) {
  uint32_t bits = (x & 0x7fffffu) | 0x3f800000u;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

// [0, 1) from 52 bits of two words (TF's Uint64ToDouble).
double uint64_to_double(uint32_t x0, uint32_t x1) {
  uint64_t man = (static_cast<uint64_t>(x0 & 0xfffffu) << 32) | x1;
  uint64_t bits = (uint64_t{1023} << 52) | man;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d - 1.0;
}

// TF's BoxMullerFloat: v1 is computed in double (2.0f * M_PI is a double) and rounded to float.
void box_muller_float(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  const float epsilon = 1.0e-7f;
  float u1 = uint32_to_float(x0);
  if (u1 < epsilon) u1 = epsilon;
  const float v1 = static_cast<float>(2.0f * M_PI * uint32_to_float(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  ::sincosf(v1, f0, f1);
  *f0 *= u2;
  *f1 *= u2;
}

void box_muller_double(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0, double* d1) {
  const double epsilon = 1.0e-7;
  double u1 = uint64_to_double(x0, x1);
  if (u1 < epsilon) u1 = epsilon;
  const double v1 = 2 * M_PI * uint64_to_double(x2, x3);
  const double u2 = std::sqrt(-2.0 * std::log(u1));
  ::sincos(v1, d0, d1);
  *d0 *= u2;
  *d1 *= u2;
}

// One Philox block gives 4 floats or 2 doubles; a partial last group drops the rest, as TF's
// FillPhiloxRandom does.
template <typename T>
void fill_uniform(Philox& gen, T* out, int64_t n) {
  constexpr int64_t kGroup = std::is_same_v<T, float> ? 4 : 2;
  for (int64_t i = 0; i < n; i += kGroup) {
    Philox::Block b = gen.next();
    T vals[4];
    if constexpr (std::is_same_v<T, float>) {
      for (int j = 0; j < 4; ++j) vals[j] = uint32_to_float(b[static_cast<size_t>(j)]);
    } else {
      vals[0] = uint64_to_double(b[0], b[1]);
      vals[1] = uint64_to_double(b[2], b[3]);
    }
    for (int64_t j = 0; j < kGroup && i + j < n; ++j) out[i + j] = vals[j];
  }
}

template <typename T>
void fill_normal(Philox& gen, T* out, int64_t n) {
  constexpr int64_t kGroup = std::is_same_v<T, float> ? 4 : 2;
  for (int64_t i = 0; i < n; i += kGroup) {
    Philox::Block b = gen.next();
    T vals[4];
    if constexpr (std::is_same_v<T, float>) {
      box_muller_float(b[0], b[1], &vals[0], &vals[1]);
      box_muller_float(b[2], b[3], &vals[2], &vals[3]);
    } else {
      box_muller_double(b[0], b[1], b[2], b[3], &vals[0], &vals[1]);
    }
    for (int64_t j = 0; j < kGroup && i + j < n; ++j) out[i + j] = vals[j];
  }
}

constexpr int kAlgPhilox = 1, kAlgThreefry = 2, kAlgAutoSelect = 3;

enum class Dist { kUniform, kNormal };

OpDef stateless_def(const std::string& name, Dist dist) {
  OpDef d;
  d.name = name;
  d.inputs = {{"shape", "Tshape"},
              {"key", "", DType::kInt64},
              {"counter", "", DType::kInt64},
              {"alg", "", DType::kInt32}};
  d.outputs = {{"output", "dtype"}};
  d.type_attrs = {{"dtype", detail::kFloatTypes, DType::kFloat32},
                  {"Tshape", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& s = c.in(0);
    if (s.has_rank() && s.rank() != 1) {
      c.fail("Shape must be rank 1 but is rank " + std::to_string(s.rank()));
    }
    for (int i = 1; i <= 2; ++i) {
      if (c.in(i).has_rank() && c.in(i).rank() != 1) {
        c.fail("Shape must be rank 1 but is rank " + std::to_string(c.in(i).rank()));
      }
    }
    if (c.in(3).has_rank() && c.in(3).rank() != 0) {
      c.fail("Shape must be rank 0 but is rank " + std::to_string(c.in(3).rank()));
    }
    if (const Tensor* v = c.value(0)) {
      std::vector<int64_t> dims = detail::tensor_ints(*v);
      for (int64_t x : dims) {
        if (x < -1) c.fail("Invalid value in tensor used for shape: " + std::to_string(x));
      }
      c.set_output(0, PartialShape(dims));
    } else if (s.has_rank() && s.dim(0) >= 0) {
      c.set_output(0, PartialShape::unknown_of_rank(static_cast<int>(s.dim(0))));
    }
  };
  d.kernel = [dist](OpKernelContext& ctx) {
    const Tensor &shape_t = ctx.input(0), &key_t = ctx.input(1), &counter_t = ctx.input(2),
                 &alg_t = ctx.input(3);
    if (alg_t.num_elements() != 1) {
      ctx.fail("alg must be a scalar, got shape " + dims_text(alg_t.eager_shape()));
    }
    int alg = alg_t.data<int32_t>()[0];
    if (alg == kAlgAutoSelect) alg = kAlgPhilox;
    if (shape_t.eager_shape().rank() != 1) {
      ctx.fail("shape must be a vector of {int32,int64}, got shape " +
               dims_text(shape_t.eager_shape()));
    }
    std::vector<int64_t> dims = detail::tensor_ints(shape_t);
    for (int64_t x : dims) {
      if (x < 0) ctx.fail("Dimension " + std::to_string(x) + " must be >= 0");
    }
    const Shape& ks = key_t.eager_shape();
    if (!(ks.rank() == 1 && ks.dim(0) == 1)) {
      ctx.fail("key must have shape [1], not " + dims_text(ks) +
               ". (Note that batched keys are not supported yet.)");
    }
    const Shape& cs = counter_t.eager_shape();
    int64_t counter_size = alg == kAlgThreefry ? 1 : 2;
    if (!(cs.rank() == 1 && cs.dim(0) >= counter_size)) {
      ctx.fail("counter must be a vector with length at least " + std::to_string(counter_size) +
               "; got shape: " + dims_text(cs) +
               ". (Note that batched counters are not supported yet.)");
    }
    DType dt = attr_type(*ctx.attrs, "dtype");
    Tensor& out = ctx.allocate_output(0, dt, Shape(dims));
    if (out.num_elements() == 0) return;
    if (alg != kAlgPhilox) ctx.fail("Unsupported algorithm id: " + std::to_string(alg));
    const int64_t* c = counter_t.data<int64_t>();
    Philox gen(static_cast<uint64_t>(key_t.data<int64_t>()[0]), static_cast<uint64_t>(c[0]),
               static_cast<uint64_t>(c[1]));
    if (dt == DType::kFloat32) {
      if (dist == Dist::kUniform)
        fill_uniform(gen, out.data<float>(), out.num_elements());
      else
        fill_normal(gen, out.data<float>(), out.num_elements());
    } else if (dt == DType::kFloat64) {
      if (dist == Dist::kUniform)
        fill_uniform(gen, out.data<double>(), out.num_elements());
      else
        fill_normal(gen, out.data<double>(), out.num_elements());
    } else {
      ctx.fail("Value for attr 'dtype' of " + std::string(dtype_tf_string(dt)) +
               " is not in the list of allowed values: half, bfloat16, float, double");
    }
  };
  return d;
}

OpRegistration r_uniform(stateless_def("StatelessRandomUniformV2", Dist::kUniform));
OpRegistration r_normal(stateless_def("StatelessRandomNormalV2", Dist::kNormal));

}  // namespace

namespace detail {
void anchor_random_ops() {}
}  // namespace detail
}  // namespace tfs
