// tape.jacobian and tape.batch_jacobian: one backward pass per element of the target (per column
// of the flattened target, for batch_jacobian), each seeded with a one-hot output gradient, the
// gradients stacked and reshaped as TF's are. TF vectorizes the passes with pfor (one
// vectorized graph); the values are the same derivatives, the graph is not TF's.
#include "tape_impl.h"
#include "tfscope/errors.h"

namespace tfs {

namespace {

std::vector<int64_t> static_dims(const Tensor& t, const char* what) {
  if (t.is_eager()) return t.eager_shape().dims();
  if (!t.shape().is_fully_defined()) {
    throw Error(ErrorKind::kNotImplemented,
                std::string("[autodiff] a jacobian of a ") + what +
                    " whose shape is known only when the graph runs is not supported yet");
  }
  return t.shape().dims();
}

// A tensor of `dims` holding 1 where `hot(flat index)` and 0 elsewhere.
template <typename F>
Tensor seed(DType dtype, const std::vector<int64_t>& dims, F hot) {
  Tensor t = Tensor::empty(dtype, Shape(dims));
  for (int64_t k = 0; k < t.num_elements(); ++k) {
    const bool one = hot(k);
    if (dtype == DType::kFloat64)
      t.data<double>()[k] = one ? 1.0 : 0.0;
    else if (dtype == DType::kFloat32)
      t.data<float>()[k] = one ? 1.0f : 0.0f;
    else
      throw Error(ErrorKind::kNotImplemented, "[autodiff] jacobians of float targets only");
  }
  return constant(Value(t));
}

Tensor source_tensor(const TapeOperand& x) {
  return x.variable ? Tensor::resource(x.variable) : x.tensor;
}

std::vector<int64_t> source_dims(const TapeOperand& x) {
  if (x.variable) return x.variable->shape().dims();
  return static_dims(x.tensor, "source");
}

}  // namespace

// The passes share the tape: it is kept (as a persistent one) until the last, then used up as
// tape.gradient uses up a non-persistent tape.
std::vector<std::vector<Tensor>> GradientTape::seeded_gradients(
    const TapeOperand& target, const std::vector<TapeOperand>& sources,
    const std::vector<Tensor>& seeds, UnconnectedGradients unconnected) {
  if (!impl_->tape) {
    throw Error(ErrorKind::kRuntimeError,
                "A non-persistent GradientTape can only be used to compute one set of gradients "
                "(or jacobians)");
  }
  if (impl_->recording && !impl_->persistent) exit();
  std::shared_ptr<autodiff::TapeData> tape = impl_->tape;
  const bool persistent = tape->persistent;
  tape->persistent = true;
  std::vector<Tensor> srcs;
  for (auto& s : sources) srcs.push_back(source_tensor(s));
  const Tensor t = source_tensor(target);
  std::vector<std::vector<Tensor>> out;
  try {
    for (const Tensor& s : seeds) {
      std::vector<Tensor> dense;
      for (auto& g : autodiff::imperative_grad(*tape, {t}, srcs, {s}, unconnected))
        dense.push_back(dense_gradient(g));
      out.push_back(std::move(dense));
    }
  } catch (...) {
    tape->persistent = persistent;
    throw;
  }
  tape->persistent = persistent;
  if (!persistent) {
    tape->op_tape.clear();
    impl_->last_variables = tape->variables;
    impl_->tape = nullptr;
  }
  return out;
}

std::vector<Tensor> GradientTape::jacobian(const TapeOperand& target,
                                           const std::vector<TapeOperand>& sources,
                                           UnconnectedGradients unconnected) {
  const Tensor t = source_tensor(target);
  const std::vector<int64_t> tdims = static_dims(t, "target");
  int64_t n = 1;
  for (int64_t d : tdims) n *= d;
  std::vector<Tensor> seeds;
  for (int64_t i = 0; i < n; ++i)
    seeds.push_back(seed(t.dtype(), tdims, [i](int64_t k) { return k == i; }));
  auto passes = seeded_gradients(target, sources, seeds, unconnected);
  std::vector<Tensor> result;
  for (size_t k = 0; k < sources.size(); ++k) {
    std::vector<int64_t> sdims = source_dims(sources[k]);
    std::vector<Tensor> rows;
    bool any = false;
    for (auto& p : passes) any = any || p[k].defined();
    if (!any || n == 0) {
      result.emplace_back();
      continue;
    }
    for (auto& p : passes) rows.push_back(p[k].defined() ? p[k] : zeros(sdims, t.dtype()));
    std::vector<int64_t> shape = tdims;
    shape.insert(shape.end(), sdims.begin(), sdims.end());
    ValueList dims;
    for (int64_t d : shape) dims.push_back(Value(d));
    result.push_back(reshape(stack(rows, 0), Value::list(std::move(dims))));
  }
  return result;
}

Tensor GradientTape::batch_jacobian(const TapeOperand& target, const TapeOperand& source,
                                    UnconnectedGradients unconnected) {
  const Tensor t = source_tensor(target);
  const std::vector<int64_t> tdims = static_dims(t, "target");
  const std::vector<int64_t> sdims = source_dims(source);
  if (tdims.empty() || sdims.empty() || tdims[0] != sdims[0]) {
    auto text = [](const std::vector<int64_t>& d) {
      std::string s = "(";
      for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
      return s + (d.size() == 1 ? ",)" : ")");
    };
    value_error("Need first dimension of target shape (" + text(tdims) + ") and source shape (" +
                text(sdims) + ") to match.");
  }
  const int64_t batch = tdims[0];
  int64_t row = 1;
  for (size_t i = 1; i < tdims.size(); ++i) row *= tdims[i];
  std::vector<Tensor> seeds;
  for (int64_t i = 0; i < row; ++i) {
    seeds.push_back(seed(t.dtype(), tdims, [i, row](int64_t k) { return k % row == i; }));
  }
  auto passes = seeded_gradients(target, {source}, seeds, unconnected);
  bool any = false;
  for (auto& p : passes) any = any || p[0].defined();
  if (!any || row == 0) return Tensor();
  std::vector<Tensor> cols;
  for (auto& p : passes) cols.push_back(p[0].defined() ? p[0] : zeros(sdims, t.dtype()));
  // [batch, row, source dims after the batch] -> [batch, target dims after it, those dims].
  std::vector<int64_t> shape = tdims;
  shape.insert(shape.end(), sdims.begin() + 1, sdims.end());
  ValueList dims;
  for (int64_t d : shape) dims.push_back(Value(d));
  (void)batch;
  return reshape(stack(cols, 1), Value::list(std::move(dims)));
}

}  // namespace tfs
