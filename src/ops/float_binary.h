// The float and double kernels of Pow, Maximum and Minimum (float_binary.cc), which math.cc's
// registrations call for those dtypes. Internal to src/ops.
#pragma once

namespace tfs {
class OpKernelContext;
}

namespace tfs::detail {

void float_pow_kernel(OpKernelContext& ctx);
void float_maximum_kernel(OpKernelContext& ctx);
void float_minimum_kernel(OpKernelContext& ctx);

}  // namespace tfs::detail
