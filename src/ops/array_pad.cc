// Padding, reversing and diagonals: Pad, PadV2, MirrorPad (REFLECT, SYMMETRIC), ReverseV2, and
// MatrixDiagV3 / MatrixSetDiagV3 on the main diagonal (what tf.eye builds), with TF 2.21's shape
// functions and kernel error texts.
#include <type_traits>

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;

// PadShapeFn (Pad, PadV2, MirrorPad): paddings is [rank, 2]; known values give the dims.
void pad_shape_fn(InferenceContext& c) {
  const PartialShape& p = c.in(1);
  detail::with_rank(c, p, 2);
  if (p.has_rank()) detail::with_value(c, p.dim(1), 2);
  const PartialShape& in = c.in(0);
  const int64_t n = p.has_rank() ? p.dim(0) : -1;
  if (n >= 0) {
    detail::with_rank(c, in, n);
  } else if (in.has_rank()) {
    detail::with_value(c, n, in.rank());
  }
  const Tensor* pt = c.value(1);
  if (!pt) {
    const int64_t rank = n >= 0 ? n : (in.has_rank() ? in.rank() : -1);
    c.set_output(0, rank >= 0 ? PartialShape(std::vector<int64_t>(static_cast<size_t>(rank), -1))
                              : PartialShape());
    return;
  }
  const std::vector<int64_t> pads = detail::tensor_ints(*pt);
  const int64_t dims_n = pt->eager_shape().dim(0);
  detail::with_rank(c, in, dims_n);
  std::vector<int64_t> out(static_cast<size_t>(dims_n), -1);
  for (int64_t i = 0; i < dims_n; ++i) {
    const int64_t a = pads[static_cast<size_t>(2 * i)], b = pads[static_cast<size_t>(2 * i + 1)];
    if (a < 0 || b < 0) c.fail("Paddings must be non-negative");
    const int64_t d = in.dim(static_cast<int>(i));
    out[static_cast<size_t>(i)] = d < 0 ? -1 : d + a + b;
  }
  c.set_output(0, PartialShape(out));
}

// The kernels' checks of paddings; returns them as [rank][2].
std::vector<int64_t> kernel_paddings(OpKernelContext& ctx, const Shape& in, const Tensor& pt) {
  const Shape& ps = pt.eager_shape();
  if (ps.rank() != 2 || ps.dim(1) != 2) {
    ctx.fail("paddings must be a matrix with 2 columns: " + dims_text(ps));
  }
  if (ps.dim(0) != in.rank()) {
    ctx.fail("The first dimension of paddings must be the rank of inputs" + dims_text(ps) + " " +
             dims_text(in));
  }
  return detail::tensor_ints(pt);
}

// Output element -> input element per dim: -1 where the output is padding (constant mode),
// else the input coordinate (mirror modes reflect into range).
enum class PadMode { kConstant, kReflect, kSymmetric };

int64_t source_coord(int64_t i, int64_t before, int64_t n, PadMode mode) {
  int64_t j = i - before;
  if (j >= 0 && j < n) return j;
  if (mode == PadMode::kConstant) return -1;
  const int64_t edge = mode == PadMode::kSymmetric ? 1 : 0;
  return j < 0 ? -j - edge : 2 * n - 2 + edge - j;
}

void pad(OpKernelContext& ctx, const Tensor& x, const std::vector<int64_t>& pads, PadMode mode,
         const Tensor* fill) {
  const Shape& s = x.eager_shape();
  const int r = s.rank();
  std::vector<int64_t> od(static_cast<size_t>(r));
  for (int i = 0; i < r; ++i) {
    od[static_cast<size_t>(i)] =
        s.dim(i) + pads[static_cast<size_t>(2 * i)] + pads[static_cast<size_t>(2 * i + 1)];
  }
  Tensor& out = ctx.allocate_output(0, x.dtype(), Shape(od));
  const int64_t n = out.num_elements();
  detail::Mover from_x(x, out);
  std::optional<detail::Mover> from_fill;
  if (fill) from_fill.emplace(*fill, out);
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t src = 0;
    bool inside = true;
    for (int d = 0; d < r; ++d) {
      const int64_t c = source_coord(idx[static_cast<size_t>(d)], pads[static_cast<size_t>(2 * d)],
                                     s.dim(d), mode);
      if (c < 0) {
        inside = false;
        break;
      }
      src = src * s.dim(d) + c;
    }
    if (inside) {
      from_x.copy(k, src);
    } else if (from_fill) {
      from_fill->copy(k, 0);
    }
    for (int d = r - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < od[static_cast<size_t>(d)]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

OpDef pad_def(const std::string& name) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "T"}, {"paddings", "Tpaddings"}};
  if (name == "PadV2") d.inputs.push_back({"constant_values", "T"});
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tpaddings", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = pad_shape_fn;
  d.kernel = [name](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const std::vector<int64_t> pads = kernel_paddings(ctx, x.eager_shape(), ctx.input(1));
    for (size_t i = 0; i < pads.size(); i += 2) {
      if (pads[i] < 0 || pads[i + 1] < 0) {
        ctx.fail("Paddings must be non-negative: " + std::to_string(pads[i]) + " " +
                 std::to_string(pads[i + 1]));
      }
    }
    if (name == "PadV2") {
      const Tensor& cv = ctx.input(2);
      if (cv.eager_shape().rank() != 0) {
        ctx.fail("constant_values must be a scalar. Got: " + dims_text(cv.eager_shape()));
      }
      pad(ctx, x, pads, PadMode::kConstant, &cv);
      return;
    }
    Tensor zero = Tensor::zeros(x.dtype(), Shape{});
    pad(ctx, x, pads, PadMode::kConstant, &zero);
  };
  return d;
}

OpRegistration r_pad(pad_def("Pad"));
OpRegistration r_pad_v2(pad_def("PadV2"));

OpRegistration r_mirror_pad([] {
  OpDef d;
  d.name = "MirrorPad";
  d.inputs = {{"input", "T"}, {"paddings", "Tpaddings"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tpaddings", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = pad_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const std::string& mode_s = attr_string(*ctx.attrs, "mode");
    const PadMode mode = mode_s == "SYMMETRIC" ? PadMode::kSymmetric : PadMode::kReflect;
    const std::vector<int64_t> pads = kernel_paddings(ctx, s, ctx.input(1));
    for (int i = 0; i < s.rank(); ++i) {
      const int64_t a = pads[static_cast<size_t>(2 * i)], b = pads[static_cast<size_t>(2 * i + 1)];
      if (a < 0 || b < 0) {
        ctx.fail("Paddings must be non-negative: " + std::to_string(a) + ", " + std::to_string(b));
      }
      const int64_t n = s.dim(i);
      if (mode == PadMode::kReflect && (a >= n || b >= n)) {
        ctx.fail("paddings must be less than the dimension size: " + std::to_string(a) + ", " +
                 std::to_string(b) + " not less than " + std::to_string(n));
      }
      if (mode == PadMode::kSymmetric && (a > n || b > n)) {
        ctx.fail("paddings must be no greater than the dimension size: " + std::to_string(a) +
                 ", " + std::to_string(b) + " greater than " + std::to_string(n));
      }
    }
    pad(ctx, x, pads, mode, nullptr);
  };
  return d;
}());

// ---- ReverseV2 ----

// The axes to reverse as a dense mask, with TF's texts for bad ones.
template <typename Fail>
std::vector<bool> reverse_axes(const std::vector<int64_t>& axes, int rank, Fail fail) {
  std::vector<bool> dense(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank) {
      fail("'axis'[" + std::to_string(i) + "] = " + std::to_string(axes[i]) +
           " is out of valid range [0, " + std::to_string(rank - 1));
    }
    if (dense[static_cast<size_t>(a)])
      fail("axis " + std::to_string(a) + " specified more than once.");
    dense[static_cast<size_t>(a)] = true;
  }
  return dense;
}

OpRegistration r_reverse([] {
  OpDef d;
  d.name = "ReverseV2";
  d.inputs = {{"tensor", "T"}, {"axis", "Tidx"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(1), 1);
    const PartialShape& in = c.in(0);
    if (in.has_rank() && in.rank() > 8) {
      c.fail("reverse does not work on tensors with more than 8 dimensions");
    }
    const Tensor* at = c.value(1);
    if (at && in.has_rank()) {
      reverse_axes(detail::tensor_ints(*at), in.rank(), [&](const std::string& m) { c.fail(m); });
    }
    c.set_output(0, in);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const std::vector<bool> rev = reverse_axes(detail::tensor_ints(ctx.input(1)), s.rank(),
                                               [&](const std::string& m) { ctx.fail(m); });
    Tensor& out = ctx.allocate_output(0, x.dtype(), s);
    const int r = s.rank();
    const int64_t n = x.num_elements();
    detail::Mover mv(x, out);
    std::vector<int64_t> idx(static_cast<size_t>(r), 0);
    for (int64_t k = 0; k < n; ++k) {
      int64_t src = 0;
      for (int d2 = 0; d2 < r; ++d2) {
        const int64_t i = idx[static_cast<size_t>(d2)];
        src = src * s.dim(d2) + (rev[static_cast<size_t>(d2)] ? s.dim(d2) - 1 - i : i);
      }
      mv.copy(k, src);
      for (int d2 = r - 1; d2 >= 0; --d2) {
        if (++idx[static_cast<size_t>(d2)] < s.dim(d2)) break;
        idx[static_cast<size_t>(d2)] = 0;
      }
    }
  };
  return d;
}());

// ---- MatrixDiagV3 / MatrixSetDiagV3 (main diagonal) ----

void require_main_diagonal(OpKernelContext& ctx, const Tensor& k) {
  for (int64_t v : detail::tensor_ints(k)) {
    if (v != 0) ctx.fail("[ops] " + *ctx.op_name + ": only the main diagonal (k = 0) is supported");
  }
}

OpRegistration r_matrix_diag([] {
  OpDef d;
  d.name = "MatrixDiagV3";
  d.inputs = {{"diagonal", "T"},
              {"k", "", DType::kInt32},
              {"num_rows", "", DType::kInt32},
              {"num_cols", "", DType::kInt32},
              {"padding_value", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    detail::with_rank_at_least(c, in, 1);
    if (!in.has_rank()) return;
    std::vector<int64_t> dims = in.dims();
    const int64_t n = dims.back();
    const Tensor *rows = c.value(2), *cols = c.value(3);
    const int64_t nr = rows ? rows->item<int64_t>() : -1, nc = cols ? cols->item<int64_t>() : -1;
    dims.back() = nr > 0 ? nr : n;
    dims.push_back(nc > 0 ? nc : n);
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& diag = ctx.input(0);
    require_main_diagonal(ctx, ctx.input(1));
    const Shape& s = diag.eager_shape();
    const int64_t n = s.dim(s.rank() - 1);
    std::vector<int64_t> od = s.dims();
    od.push_back(n);
    Tensor& out = ctx.allocate_output(0, diag.dtype(), Shape(od));
    detail::Mover pad_mv(ctx.input(4), out), diag_mv(diag, out);
    const int64_t batches = n == 0 ? 0 : diag.num_elements() / n;
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          const int64_t o = (b * n + i) * n + j;
          if (i == j) {
            diag_mv.copy(o, b * n + i);
          } else {
            pad_mv.copy(o, 0);
          }
        }
      }
    }
  };
  return d;
}());

OpRegistration r_matrix_set_diag([] {
  OpDef d;
  d.name = "MatrixSetDiagV3";
  d.inputs = {{"input", "T"}, {"diagonal", "T"}, {"k", "", DType::kInt32}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank_at_least(c, c.in(0), 2);
    c.set_output(0, c.in(0));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &x = ctx.input(0), &diag = ctx.input(1);
    require_main_diagonal(ctx, ctx.input(2));
    const Shape& s = x.eager_shape();
    const int64_t rows = s.dim(s.rank() - 2), cols = s.dim(s.rank() - 1);
    const int64_t m = std::min(rows, cols);
    if (diag.eager_shape().rank() < 1 ||
        diag.eager_shape().dim(diag.eager_shape().rank() - 1) != m) {
      ctx.fail("diagonal must have " + std::to_string(m) + " values in its last dimension, got " +
               dims_text(diag.eager_shape()));
    }
    Tensor& out = ctx.allocate_output(0, x.dtype(), s);
    detail::Mover(x, out).copy(0, 0, x.num_elements());
    detail::Mover mv(diag, out);
    const int64_t batches = rows * cols == 0 ? 0 : x.num_elements() / (rows * cols);
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t i = 0; i < m; ++i) mv.copy((b * rows + i) * cols + i, b * m + i);
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_array_pad_ops() {}
}  // namespace detail
}  // namespace tfs
