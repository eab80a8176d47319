// Random numbers with TF's Philox4x32-10: the stateful ops tf.random.uniform/normal build
// (RandomUniform, RandomUniformInt, RandomStandardNormal) and the stateless ones
// (StatelessRandomUniformV2, StatelessRandomNormalV2; alg 1, and alg 3 "auto select", which
// TF's CPU kernels resolve to Philox). The generator, the bits-to-number conversions and
// Box-Muller are TF's (philox_random.h, random_distributions.h), so the same key and counter
// give the same numbers bit for bit.
//
// A stateful kernel is seeded from its (seed, seed2) attrs and keeps its generator between runs
// (KernelState): each run reserves 256 Philox blocks per output element, as TF's
// GuardedPhiloxRandom does, and the next run starts after them.
//
// TF types key and counter as uint64; tfscope has no uint64 dtype, so they are int64 here and
// their bits are read as uint64.
#include <array>
#include <cmath>
#include <cstring>
#include <random>

#include "kernel_util.h"
#include "tfscope/detail/philox.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;
using detail::Philox;

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

// TF's UniformDistribution<int32/int64>: the low bits of a block, modulo the range (uint32 or
// uint64 arithmetic), added to lo. int64 values take two words each, low word first.
template <typename T>
void fill_uniform_int(Philox& gen, T* out, int64_t n, T lo, T hi) {
  using U = std::make_unsigned_t<T>;
  const U range = static_cast<U>(static_cast<U>(hi) - static_cast<U>(lo));
  constexpr int64_t kGroup = std::is_same_v<T, int32_t> ? 4 : 2;
  for (int64_t i = 0; i < n; i += kGroup) {
    Philox::Block b = gen.next();
    for (int64_t j = 0; j < kGroup && i + j < n; ++j) {
      U bits;
      if constexpr (std::is_same_v<T, int32_t>) {
        bits = b[static_cast<size_t>(j)];
      } else {
        bits = static_cast<uint64_t>(b[static_cast<size_t>(2 * j)]) |
               (static_cast<uint64_t>(b[static_cast<size_t>(2 * j + 1)]) << 32);
      }
      out[i + j] = static_cast<T>(static_cast<U>(lo) + bits % range);
    }
  }
}

constexpr int kAlgPhilox = 1, kAlgThreefry = 2, kAlgAutoSelect = 3;

enum class Dist { kUniform, kNormal };

// Output shape from a shape vector input (its value where known).
void shape_from_input(InferenceContext& c, int i) {
  const PartialShape& s = c.in(i);
  if (s.has_rank() && s.rank() != 1) {
    c.fail("Shape must be rank 1 but is rank " + std::to_string(s.rank()));
  }
  if (const Tensor* v = c.value_as_shape(i)) {
    std::vector<int64_t> dims = detail::tensor_ints(*v);
    for (int64_t x : dims) {
      if (x >= -1) continue;
      // TF reports this while evaluating the shape tensor, without the node and input shapes.
      const std::string msg = "Invalid value in tensor used for shape: " + std::to_string(x);
      if (!c.node_summary.empty()) value_error(msg);
      c.fail(msg);
    }
    c.set_output(0, PartialShape(dims));
  } else if (s.has_rank() && s.dim(0) >= 0) {
    c.set_output(0, PartialShape::unknown_of_rank(static_cast<int>(s.dim(0))));
  }
}

void require_rank(InferenceContext& c, int i, int rank) {
  if (c.in(i).has_rank() && c.in(i).rank() != rank) {
    c.fail("Shape must be rank " + std::to_string(rank) + " but is rank " +
           std::to_string(c.in(i).rank()));
  }
}

// The run-time shape operand, with the kernels' error texts.
Shape output_shape(OpKernelContext& ctx, const Tensor& shape_t) {
  if (shape_t.eager_shape().rank() != 1) {
    ctx.fail("shape must be a vector of {int32,int64}, got shape " +
             dims_text(shape_t.eager_shape()));
  }
  std::vector<int64_t> dims = detail::tensor_ints(shape_t);
  for (int64_t x : dims) {
    if (x < 0) ctx.fail("Dimension " + std::to_string(x) + " must be >= 0");
  }
  return Shape(dims);
}

// ---- stateful ops ----

class PhiloxState : public KernelState {
 public:
  explicit PhiloxState(Philox gen) : gen_(gen) {}
  // TF's ReserveRandomOutputs(n, 256): the caller gets the generator as it stands, and the
  // state moves past 256 blocks per output.
  Philox reserve(int64_t num_outputs) {
    Philox local = gen_;
    gen_.skip(static_cast<uint64_t>(num_outputs) * 256);
    return local;
  }

 private:
  Philox gen_;
};

// TF's GuardedPhiloxRandom::Init: key from seed, counter's high half from seed2; (0, 0) means
// seeds from the OS.
Philox seeded_philox(int64_t seed, int64_t seed2) {
  if (seed == 0 && seed2 == 0) {
    std::random_device rd;
    auto draw64 = [&rd] { return (static_cast<uint64_t>(rd()) << 32) | rd(); };
    uint64_t s1 = draw64();
    return Philox(s1, 0, draw64());
  }
  return Philox(static_cast<uint64_t>(seed), 0, static_cast<uint64_t>(seed2));
}

Philox reserve_philox(OpKernelContext& ctx, int64_t num_outputs) {
  const int64_t seed = attr_int_or(*ctx.attrs, "seed", 0);
  const int64_t seed2 = attr_int_or(*ctx.attrs, "seed2", 0);
  auto make = [&] { return std::make_unique<PhiloxState>(seeded_philox(seed, seed2)); };
  auto reserve = [&](PhiloxState& s) { return s.reserve(num_outputs); };
  if (!ctx.state) return make()->reserve(num_outputs);
  return ctx.state->with<PhiloxState>(make, reserve);
}

OpDef stateful_def(const std::string& name) {
  OpDef d;
  d.name = name;
  d.stateful = true;
  d.order_insensitive = true;
  d.keeps_state = true;
  return d;
}

OpDef random_float_def(const std::string& name, Dist dist) {
  OpDef d = stateful_def(name);
  d.inputs = {{"shape", "T"}};
  d.outputs = {{"output", "dtype"}};
  d.type_attrs = {{"dtype", detail::kFloatTypes, std::nullopt},
                  {"T", detail::kIndexTypes, std::nullopt}};
  d.shape_fn = [](InferenceContext& c) { shape_from_input(c, 0); };
  d.kernel = [dist](OpKernelContext& ctx) {
    Shape shape = output_shape(ctx, ctx.input(0));
    DType dt = attr_type(*ctx.attrs, "dtype");
    if (dt != DType::kFloat32 && dt != DType::kFloat64) {
      ctx.fail("Value for attr 'dtype' of " + std::string(dtype_tf_string(dt)) +
               " is not in the list of allowed values: half, bfloat16, float, double");
    }
    Tensor& out = ctx.allocate_output(0, dt, shape);
    const int64_t n = out.num_elements();
    Philox gen = reserve_philox(ctx, n);
    if (dt == DType::kFloat32) {
      if (dist == Dist::kUniform) fill_uniform(gen, out.data<float>(), n);
      else fill_normal(gen, out.data<float>(), n);
    } else {
      if (dist == Dist::kUniform) fill_uniform(gen, out.data<double>(), n);
      else fill_normal(gen, out.data<double>(), n);
    }
  };
  return d;
}

OpDef random_uniform_int_def() {
  OpDef d = stateful_def("RandomUniformInt");
  d.inputs = {{"shape", "T"}, {"minval", "Tout"}, {"maxval", "Tout"}};
  d.outputs = {{"output", "Tout"}};
  d.type_attrs = {{"Tout", detail::kIndexTypes, std::nullopt},
                  {"T", detail::kIndexTypes, std::nullopt}};
  d.shape_fn = [](InferenceContext& c) {
    require_rank(c, 1, 0);
    require_rank(c, 2, 0);
    shape_from_input(c, 0);
  };
  d.kernel = [](OpKernelContext& ctx) {
    Shape shape = output_shape(ctx, ctx.input(0));
    const Tensor &lo_t = ctx.input(1), &hi_t = ctx.input(2);
    if (lo_t.eager_shape().rank() != 0) {
      ctx.fail("minval must be 0-D, got shape " + dims_text(lo_t.eager_shape()));
    }
    if (hi_t.eager_shape().rank() != 0) {
      ctx.fail("maxval must be 0-D, got shape " + dims_text(hi_t.eager_shape()));
    }
    DType dt = attr_type(*ctx.attrs, "Tout");
    Tensor& out = ctx.allocate_output(0, dt, shape);
    const int64_t n = out.num_elements();
    // TF returns before checking the range (and before drawing) when there is nothing to fill.
    if (n == 0) return;
    auto fill = [&](auto tag) {
      using T = decltype(tag);
      const T lo = lo_t.data<T>()[0], hi = hi_t.data<T>()[0];
      if (!(lo < hi)) {
        ctx.fail("Need minval < maxval, got " + std::to_string(lo) + " >= " + std::to_string(hi));
      }
      Philox gen = reserve_philox(ctx, n);
      fill_uniform_int(gen, out.data<T>(), n, lo, hi);
    };
    if (dt == DType::kInt32) fill(int32_t{});
    else fill(int64_t{});
  };
  return d;
}

OpRegistration r_random_uniform(random_float_def("RandomUniform", Dist::kUniform));
OpRegistration r_random_normal(random_float_def("RandomStandardNormal", Dist::kNormal));
OpRegistration r_random_uniform_int(random_uniform_int_def());

// ---- stateless ops ----

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
    require_rank(c, 0, 1);
    require_rank(c, 1, 1);
    require_rank(c, 2, 1);
    require_rank(c, 3, 0);
    shape_from_input(c, 0);
  };
  d.kernel = [dist](OpKernelContext& ctx) {
    const Tensor &shape_t = ctx.input(0), &key_t = ctx.input(1), &counter_t = ctx.input(2),
                 &alg_t = ctx.input(3);
    if (alg_t.num_elements() != 1) {
      ctx.fail("alg must be a scalar, got shape " + dims_text(alg_t.eager_shape()));
    }
    int alg = alg_t.data<int32_t>()[0];
    if (alg == kAlgAutoSelect) alg = kAlgPhilox;
    std::vector<int64_t> dims = output_shape(ctx, shape_t).dims();
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
