// Pow on float and double as TF 2.21's kernel computes it (eigen_pow.h): Eigen's packet pow on
// whole packets of the flat output, the C library's pow on the tail. TF evaluates a same-shape
// or scalar-operand Pow as one flat range; a broadcast Pow through Eigen's tiled executor, whose
// blocks of about 12K elements each end in their own scalar tail: that split is not reproduced
// (those elements differ from TF's by the few ulps between the two pows).
#include <type_traits>

#include "eigen_pow.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs::detail {

namespace {

template <typename T>
void pow_flat(OpKernelContext& ctx) {
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
    po[k] = k < packed ? eigen_pow<true>(x, y) : eigen_pow<false>(x, y);
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

}  // namespace

void float_pow_kernel(OpKernelContext& ctx) {
  if (ctx.input(0).dtype() == DType::kFloat32) pow_flat<float>(ctx);
  else pow_flat<double>(ctx);
}

}  // namespace tfs::detail
