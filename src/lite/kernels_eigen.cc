// The fast float FULLY_CONNECTED: one Eigen matrix product (kept in its own translation unit,
// Eigen's templates are heavy).
#include <Eigen/Core>

#include "tfscope/lite_kernels.h"

namespace tfs::lite::kernels {

void fully_connected_float_fast(const float* in, int batch, int depth, const float* w, int units,
                                const float* bias, Activation act, float* out) {
  using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Eigen::Map<const RowMajor> x(in, batch, depth);
  Eigen::Map<const RowMajor> wm(w, units, depth);
  Eigen::Map<RowMajor> y(out, batch, units);
  if (batch == 1) {
    Eigen::Map<Eigen::VectorXf> yv(out, units);
    Eigen::Map<const Eigen::VectorXf> xv(in, depth);
    yv.noalias() = wm * xv;
  } else {
    y.noalias() = x * wm.transpose();
  }
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) {
      float& o = out[b * units + u];
      o = activate(o + (bias ? bias[u] : 0.0f), act);
    }
  }
}

}  // namespace tfs::lite::kernels
