// SparseSoftmaxCrossEntropyWithLogits as TF 2.21's CPU kernel computes it (sparse_xent_op.h):
// the row max, logits - max, the row sums of exp (Eigen's inner-dim reducer over its packet exp
// and scalar exp, eigen_reduce.h), the loss log(sum) - (logits - max)[label] per row, and the
// backprop exp(logits - max) / sum - (1 at the label), exp over the flat [batch, classes] range
// in packets and a scalar tail. And tf.nn.sparse_softmax_cross_entropy_with_logits.
#include <cmath>
#include <limits>

#include "eigen_reduce.h"
#include "eigen_unary.h"
#include "kernel_util.h"
#include "op_scope.h"
#include "tfscope/errors.h"
#include "tfscope/ops.h"
#include "tfscope/ops_loss.h"

namespace tfs {
namespace {

// exp of one row of (logits - max), as Eigen's reducer reads the expression: packet exp on the
// packets it loads, scalar exp on the rest; the values come from memory (denormals as zero).
template <typename T>
struct ExpSource {
  using Scalar = T;
  const T* x;
  T coeff(int64_t i) const { return detail::unary::Exp::eval<false>(detail::flush_denormal(x[i])); }
  void packet(int64_t i, detail::EigenPacket<T>& p) const {
    for (int l = 0; l < detail::kEigenLanes<T>; ++l) {
      p.v[l] = detail::unary::Exp::eval<true>(detail::flush_denormal(x[i + l]));
    }
  }
};

template <typename T, typename L>
void xent(OpKernelContext& ctx, const Tensor& logits, const Tensor& labels) {
  const int64_t batch = logits.eager_shape().dim(0), classes = logits.eager_shape().dim(1);
  const L* lab = labels.data<L>();
  for (int64_t b = 0; b < batch; ++b) {
    if (lab[b] < 0 || lab[b] >= classes) {
      std::string values;
      for (int64_t i = 0; i < batch; ++i) values += (i ? " " : "") + std::to_string(lab[i]);
      ctx.fail("Received a label value of " + std::to_string(lab[b]) +
               " which is outside the valid range of [0, " + std::to_string(classes) +
               ").  Label values: " + values);
    }
  }
  // Handles, not references: allocating the second output may move the first.
  Tensor loss = ctx.allocate_output(0, logits.dtype(), Shape{batch});
  Tensor back = ctx.allocate_output(1, logits.dtype(), Shape{batch, classes});
  const T* x = logits.data<T>();
  T* bp = back.data<T>();
  T* lo = loss.data<T>();
  std::vector<T> sums(static_cast<size_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    const T* row = x + b * classes;
    T m = -std::numeric_limits<T>::infinity();
    for (int64_t c = 0; c < classes; ++c) m = std::max(m, detail::flush_denormal(row[c]));
    for (int64_t c = 0; c < classes; ++c) {
      bp[b * classes + c] = detail::flush_denormal(detail::flush_denormal(row[c]) - m);
    }
  }
  ExpSource<T> src{bp};
  for (int64_t b = 0; b < batch; ++b) {
    sums[static_cast<size_t>(b)] = detail::flush_denormal(
        detail::reduce_inner<detail::SumReducer<T>>(src, b * classes, classes));
    lo[b] = detail::flush_denormal(std::log(sums[static_cast<size_t>(b)]) -
                                   bp[b * classes + static_cast<int64_t>(lab[b])]);
  }
  detail::fill_packets(bp, bp, batch * classes, [](T v, auto packet) {
    return detail::flush_denormal(detail::unary::Exp::eval<decltype(packet)::value>(v));
  });
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < classes; ++c) {
      T sub = c == static_cast<int64_t>(lab[b]) ? T(1) : T(0);
      T& e = bp[b * classes + c];
      e = detail::flush_denormal(e / sums[static_cast<size_t>(b)] - sub);
    }
  }
}

OpRegistration r_sparse_xent([] {
  OpDef d;
  d.name = "SparseSoftmaxCrossEntropyWithLogits";
  d.inputs = {{"features", "T"}, {"labels", "Tlabels"}};
  d.outputs = {{"loss", "T"}, {"backprop", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}, {"Tlabels", detail::kIndexTypes, DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 2);
    detail::with_rank(c, c.in(1), 1);
    PartialShape features = c.in(0).has_rank() ? c.in(0) : PartialShape::unknown_of_rank(2);
    int64_t fb = features.dim(0);
    int64_t lb = c.in(1).has_rank() ? c.in(1).dim(0) : -1;
    if (fb >= 0 && lb >= 0 && fb != lb) {
      c.fail("Dimensions must be equal, but are " + std::to_string(fb) + " and " +
             std::to_string(lb));
    }
    int64_t batch = fb >= 0 ? fb : lb;
    c.set_output(0, PartialShape{batch});
    c.set_output(1, PartialShape{batch, features.dim(1)});
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &logits = ctx.input(0), &labels = ctx.input(1);
    const Shape &ls = logits.eager_shape(), &bs = labels.eager_shape();
    if (ls.rank() != 2) ctx.fail("logits must be 2-D, but got shape " + ls.str());
    if (bs.rank() != 1) ctx.fail("labels must be 1-D, but got shape " + bs.str());
    if (ls.dim(0) != bs.dim(0)) {
      ctx.fail("logits and labels must have the same first dimension, got logits shape " +
               ls.str() + " and labels shape " + bs.str());
    }
    if (ls.dim(1) == 0) {
      ctx.fail("Must have at least one class, but got logits shape " + ls.str());
    }
    visit_dtype(logits.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        if (labels.dtype() == DType::kInt32)
          xent<T, int32_t>(ctx, logits, labels);
        else
          xent<T, int64_t>(ctx, logits, labels);
      }
    });
  };
  return d;
}());

// SoftmaxCrossEntropyWithLogits (xent_op.h's XentEigenImpl), labels and logits broadcast to
// [batch, classes] (a dim of 1 stretched): the row max, logits - max, the row sums of exp as in
// the sparse kernel, log of the sums as an Eigen expression over the batch (packets and a scalar
// tail), loss = row sums of labels * (log(sum) - (logits - max)), and the backprop
// exp(logits - max) / sum - labels with exp over the flat range in packets and a scalar tail.
template <typename T>
void dense_xent(OpKernelContext& ctx, const Tensor& logits, const Tensor& labels, int64_t batch,
                int64_t classes) {
  using detail::flush_denormal;
  const Shape &gs = logits.eager_shape(), &ls = labels.eager_shape();
  auto at = [&](const Tensor& t, const Shape& s, int64_t b, int64_t c) {
    return t.data<T>()[(s.dim(0) == 1 ? 0 : b) * s.dim(1) + (s.dim(1) == 1 ? 0 : c)];
  };
  Tensor loss = ctx.allocate_output(0, logits.dtype(), Shape{batch});
  Tensor back = ctx.allocate_output(1, logits.dtype(), Shape{batch, classes});
  T* bp = back.data<T>();
  T* lo = loss.data<T>();
  for (int64_t b = 0; b < batch; ++b) {
    T m = -std::numeric_limits<T>::infinity();
    for (int64_t c = 0; c < classes; ++c) m = std::max(m, flush_denormal(at(logits, gs, b, c)));
    for (int64_t c = 0; c < classes; ++c) {
      bp[b * classes + c] = flush_denormal(flush_denormal(at(logits, gs, b, c)) - m);
    }
  }
  std::vector<T> sums(static_cast<size_t>(batch)), logs(static_cast<size_t>(batch));
  ExpSource<T> src{bp};
  for (int64_t b = 0; b < batch; ++b) {
    sums[static_cast<size_t>(b)] =
        flush_denormal(detail::reduce_inner<detail::SumReducer<T>>(src, b * classes, classes));
  }
  detail::fill_packets(sums.data(), logs.data(), batch, [](T v, auto packet) {
    return flush_denormal(detail::unary::Log::eval<decltype(packet)::value>(v));
  });
  std::vector<T> terms(static_cast<size_t>(classes));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < classes; ++c) {
      const T diff = flush_denormal(logs[static_cast<size_t>(b)] - bp[b * classes + c]);
      terms[static_cast<size_t>(c)] = flush_denormal(flush_denormal(at(labels, ls, b, c)) * diff);
    }
    lo[b] = flush_denormal(detail::reduce_inner<detail::SumReducer<T>>(
        detail::MemorySource<T>{terms.data()}, 0, classes));
  }
  detail::fill_packets(bp, bp, batch * classes, [](T v, auto packet) {
    return flush_denormal(detail::unary::Exp::eval<decltype(packet)::value>(v));
  });
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t c = 0; c < classes; ++c) {
      T& e = bp[b * classes + c];
      e = flush_denormal(flush_denormal(e / sums[static_cast<size_t>(b)]) -
                         flush_denormal(at(labels, ls, b, c)));
    }
  }
}

// The broadcast [batch, classes] of two rank-2 shapes, or -1s where they do not broadcast.
std::pair<int64_t, int64_t> xent_bcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  auto one = [](int64_t x, int64_t y) { return x == y ? x : x == 1 ? y : y == 1 ? x : int64_t{-1}; };
  return {one(a[0], b[0]), one(a[1], b[1])};
}

OpRegistration r_dense_xent([] {
  OpDef d;
  d.name = "SoftmaxCrossEntropyWithLogits";
  d.inputs = {{"features", "T"}, {"labels", "T"}};
  d.outputs = {{"loss", "T"}, {"backprop", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 2);
    detail::with_rank(c, c.in(1), 2);
    PartialShape f = c.in(0).has_rank() ? c.in(0) : PartialShape::unknown_of_rank(2);
    PartialShape l = c.in(1).has_rank() ? c.in(1) : PartialShape::unknown_of_rank(2);
    auto dim = [&](int i) {
      int64_t x = f.dim(i), y = l.dim(i);
      if (x >= 0 && y >= 0 && x != y && x != 1 && y != 1) {
        c.fail("Dimensions must be equal, but are " + std::to_string(x) + " and " +
               std::to_string(y));
      }
      if (x < 0 || y < 0) {
        const int64_t known = x < 0 ? y : x;  // a known dim other than 1 decides
        return known > 1 ? known : int64_t{-1};
      }
      return x == 1 ? y : x;
    };
    int64_t batch = dim(0), classes = dim(1);
    c.set_output(0, PartialShape{batch});
    c.set_output(1, PartialShape{batch, classes});
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &logits = ctx.input(0), &labels = ctx.input(1);
    const Shape &gs = logits.eager_shape(), &ls = labels.eager_shape();
    if (gs.rank() != 2 || ls.rank() != 2) {
      ctx.fail("logits and labels must be either 2-dimensional, or broadcasted to be "
               "2-dimensional");
    }
    auto [batch, classes] = xent_bcast(gs.dims(), ls.dims());
    if (batch < 0 || classes < 0) {
      ctx.fail("logits and labels must be broadcastable: logits_size=" + gs.str() +
               " labels_size=" + ls.str());
    }
    if (classes == 0 && batch > 0) {
      ctx.fail("Must have at least one class, but got logits shape " + gs.str());
    }
    visit_dtype(logits.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) dense_xent<T>(ctx, logits, labels, batch, classes);
    });
  };
  return d;
}());

}  // namespace

Tensor sparse_softmax_cross_entropy_with_logits(const Value& labels_v, const Value& logits_v) {
  detail::OpScope s("SparseSoftmaxCrossEntropyWithLogits");
  Tensor labels = convert_to_tensor(labels_v);
  Tensor logits = convert_to_tensor(logits_v);
  const PartialShape &lg = logits.shape(), &lb = labels.shape();
  if (lg.has_rank() && lg.rank() == 0) {
    value_error("`logits` cannot be a scalar. Received logits=" + logits.str() + "`");
  }
  if (lg.has_rank() && lb.has_rank() && lb.rank() != lg.rank() - 1) {
    value_error("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape=" +
                lb.str() + " of rank " + std::to_string(lb.rank()) +
                " and logits.shape=" + lg.str() + " of rank " + std::to_string(lg.rank()));
  }
  if (lg.is_fully_defined() && lb.is_fully_defined()) {
    std::vector<int64_t> outer(lg.dims().begin(), lg.dims().end() - 1);
    if (lb.dims() != outer) {
      value_error(
          "`labels.shape` must equal `logits.shape` except for the last dimension. "
          "Received: labels.shape=" +
          lb.str() + " and logits.shape=" + lg.str());
    }
  }
  shape(labels);  // TF's wrapper takes the labels' shape first (a Const when static)
  if (!lg.has_rank() || lg.rank() != 2) {
    throw Error(ErrorKind::kNotImplemented,
                "[ops] sparse_softmax_cross_entropy_with_logits takes rank-2 logits only");
  }
  auto outs = execute("SparseSoftmaxCrossEntropyWithLogits", {logits, labels}, {},
                      "SparseSoftmaxCrossEntropyWithLogits");
  return outs[0];
}

namespace detail {
void anchor_xent_ops() {}
}  // namespace detail

}  // namespace tfs
