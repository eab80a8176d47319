// Pow, Maximum and Minimum on float and double as TF 2.21's kernels compute them: Eigen's packet
// functions on whole packets of the flat output, its scalar ones on the tail (eigen_pow.h; for
// Maximum/Minimum the two differ in which operand comes back, read as zero, when a denormal or a
// signed zero meets an equal value). TF evaluates a same-shape or scalar-operand op as one flat
// range; a broadcast one through Eigen's tiled executor, whose blocks of about 12K elements each
// end in their own scalar tail: that split is not reproduced (such elements can differ from
// TF's by the few ulps between the two pows, or in the sign of a zero).
#include "float_binary.h"

#include <cmath>
#include <type_traits>

#include "eigen_pow.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs::detail {

namespace {

struct PowOp {
  template <bool kPacket, typename T>
  static T eval(T x, T y) {
    return eigen_pow<kPacket>(x, y);
  }
};

// Packets: vmaxps(x, y) / vminps(x, y) where x is not NaN (x itself where it is); scalars: y
// or x when either is NaN, else vmaxss(y, x) / vminss(y, x), the operand order TF's compiled
// scalar code uses.
struct MaximumOp {
  template <bool kPacket, typename T>
  static T eval(T x, T y) {
    if (std::isnan(x)) return x;
    if constexpr (kPacket) return lane::max(y, x);
    if (std::isnan(y)) return y;
    return lane::max(x, y);
  }
};
struct MinimumOp {
  template <bool kPacket, typename T>
  static T eval(T x, T y) {
    if (std::isnan(x)) return x;
    if constexpr (kPacket) return lane::min(y, x);
    if (std::isnan(y)) return y;
    return lane::min(x, y);
  }
};

template <typename F, typename T>
void flat_binary(OpKernelContext& ctx) {
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
  auto os = broadcast_shapes(sa, sb);
  if (!os) ctx.fail("Incompatible shapes: " + dims_text(sa) + " vs. " + dims_text(sb));
  Tensor& out = ctx.allocate_output(0, a.dtype(), *os);
  const int64_t n = out.num_elements();
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* po = out.data<T>();
  constexpr int64_t kPacketSize = 32 / sizeof(T);
  const int64_t packed = n - n % kPacketSize;
  auto one = [&](int64_t k, T x, T y) {
    po[k] = k < packed ? F::template eval<true>(x, y) : F::template eval<false>(x, y);
  };
  if (sa == sb) {
    for (int64_t k = 0; k < n; ++k) one(k, pa[k], pb[k]);
  } else if (sb.num_elements() == 1 && sa == *os) {
    for (int64_t k = 0; k < n; ++k) one(k, pa[k], pb[0]);
  } else if (sa.num_elements() == 1 && sb == *os) {
    for (int64_t k = 0; k < n; ++k) one(k, pa[0], pb[k]);
  } else {
    for_each_broadcast(*os, broadcast_strides(sa, *os), broadcast_strides(sb, *os),
                       [&](int64_t k, int64_t ia, int64_t ib) { one(k, pa[ia], pb[ib]); });
  }
}

template <typename F>
void float_binary(OpKernelContext& ctx) {
  if (ctx.input(0).dtype() == DType::kFloat32)
    flat_binary<F, float>(ctx);
  else
    flat_binary<F, double>(ctx);
}

}  // namespace

void float_pow_kernel(OpKernelContext& ctx) {
  float_binary<PowOp>(ctx);
}
void float_maximum_kernel(OpKernelContext& ctx) {
  float_binary<MaximumOp>(ctx);
}
void float_minimum_kernel(OpKernelContext& ctx) {
  float_binary<MinimumOp>(ctx);
}

}  // namespace tfs::detail
