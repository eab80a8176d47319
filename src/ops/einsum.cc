// Einsum (tf.einsum) for one or two operands whose labels are batch, free or contracted dims
// (the contractions transformers write: 'bij,bjk->bik', 'bhqd,bhkd->bhqk', 'ij,jk->ik',
// 'bi,bi->b'), as TF 2.21's EinsumOp computes them (einsum_op_impl.h): each operand is
// transposed to [batch, free, contract] in label order, unless its labels are already in
// [batch, contract, free] order (then it is used as it is, transposed in the product), the
// contraction is TF's BatchMatMul kernel (matmul_f32.h for float32), and its [batch, free0, free1]
// result is transposed to the output's labels. Labels are numbered by first appearance. A label
// repeated in one operand ('bxby->bxy', 'ii->i') takes that operand's diagonal first, as TF's
// kernel does (a copy: no arithmetic). Not here: ellipses, a label summed out of one operand
// only.
#include <algorithm>
#include <map>
#include <numeric>
#include <type_traits>

#include "kernel_util.h"
#include "matmul_f32.h"
#include "tfscope/ops.h"

namespace tfs {
namespace detail {
void anchor_einsum_ops() {}
}  // namespace detail

namespace {

using detail::dims_text;

// Dimension types in TF's order (EinsumDimensionType).
enum DimType : int { kBatch = 1, kFree = 2, kContract = 3 };

struct Equation {
  std::vector<std::vector<int>> raw;     // label ids per operand dim, as written
  std::vector<std::vector<int>> inputs;  // the same with each label once (its first place)
  std::vector<int> output;
  std::vector<DimType> types;  // per label id
  int num_labels = 0;
};

[[noreturn]] void unsupported(const std::string& eq, const std::string& what) {
  throw Error(ErrorKind::kUnimplemented, "[ops] einsum '" + eq + "': " + what);
}

Equation parse(const std::string& eq, int num_inputs) {
  Equation e;
  std::map<char, int> ids;
  auto labels_of = [&](const std::string& s) {
    std::vector<int> out;
    for (char ch : s) {
      if (ch == '.') unsupported(eq, "ellipsis is not supported by tfscope");
      if (!std::isalpha(static_cast<unsigned char>(ch))) {
        invalid_argument("Expected either a letter or a '.', but got " + std::string(1, ch) +
                         " in " + eq);
      }
      auto it = ids.find(ch);
      if (it == ids.end()) it = ids.emplace(ch, static_cast<int>(ids.size())).first;
      out.push_back(it->second);
    }
    return out;
  };
  const size_t arrow = eq.find("->");
  if (arrow == std::string::npos)
    invalid_argument("Expecting exactly one '->' in einsum equation: " + eq);
  const std::string lhs = eq.substr(0, arrow), rhs = eq.substr(arrow + 2);
  size_t start = 0;
  while (true) {
    const size_t comma = lhs.find(',', start);
    e.raw.push_back(
        labels_of(lhs.substr(start, comma == std::string::npos ? comma : comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (static_cast<int>(e.raw.size()) != num_inputs) {
    invalid_argument("Expecting " + std::to_string(num_inputs) + " input subscripts in equation '" +
                     eq + "' but got: " + std::to_string(e.raw.size()));
  }
  if (num_inputs > 2) unsupported(eq, "more than two operands");
  e.output = labels_of(rhs);
  e.num_labels = static_cast<int>(ids.size());
  std::vector<int> in_count(e.num_labels, 0), out_count(e.num_labels, 0);
  for (auto& in : e.raw) {
    std::vector<int> seen(e.num_labels, 0), once;
    for (int l : in) {
      if (seen[l]++) continue;
      once.push_back(l);
      ++in_count[l];
    }
    e.inputs.push_back(std::move(once));
  }
  for (int l : e.output) {
    if (out_count[l]++)
      invalid_argument("Output subscripts contain a label appearing more than once: " + eq);
  }
  e.types.resize(e.num_labels);
  for (int l = 0; l < e.num_labels; ++l) {
    if (out_count[l] && in_count[l] == 0) {
      invalid_argument(
          "Output subscripts contain the label " +
          std::string(1, rhs[std::find(e.output.begin(), e.output.end(), l) - e.output.begin()]) +
          " not present in the input subscripts.");
    }
    const bool everywhere = in_count[l] == num_inputs;
    if (out_count[l]) {
      e.types[l] = everywhere && num_inputs == 2 ? kBatch : kFree;
    } else if (everywhere && num_inputs == 2) {
      e.types[l] = kContract;
    } else {
      unsupported(eq, "a label summed out of one operand only");
    }
  }
  return e;
}

// Label sizes from the operands' shapes (-1 unknown), with the texts of the shape function
// (`graph`) or of the kernel.
std::vector<int64_t> label_sizes(const Equation& e, const std::vector<std::vector<int64_t>>& dims,
                                 const std::string& eq, bool graph,
                                 const std::function<void(const std::string&)>& fail) {
  static const char* const kOrdinal[] = {"0th", "1st"};
  std::vector<int64_t> size(e.num_labels, -1);
  for (size_t i = 0; i < e.raw.size(); ++i) {
    if (dims[i].size() != e.raw[i].size()) {
      const std::string want = std::to_string(e.raw[i].size());
      const std::string got = std::to_string(dims[i].size());
      fail(graph ? "Shape must be rank " + want + " but is rank " + got + "\n\t for " +
                       kOrdinal[i] + " input and equation: " + eq
                 : "Expected input " + std::to_string(i) + " to have rank " + want +
                       " but got: " + got);
    }
    for (size_t d = 0; d < dims[i].size(); ++d) {
      const int l = e.raw[i][d];
      const int64_t v = dims[i][d];
      if (v < 0) continue;
      if (size[l] >= 0 && size[l] != v) {
        fail(graph ? "Dimensions must be equal, but are " + std::to_string(size[l]) + " and " +
                         std::to_string(v)
                   : "Expected dimension " + std::to_string(size[l]) + " at axis " +
                         std::to_string(d) + " of the input shaped " + dims_text(Shape(dims[i])) +
                         " but got dimension " + std::to_string(v));
      }
      size[l] = v;
    }
  }
  return size;
}

// ShouldSwapFreeAndContract: the operand's labels already in (batch, contract, free) order.
bool already_batch_contract_free(const std::vector<int>& labels, const Equation& e) {
  auto rank = [&](int l) { return e.types[l] == kFree ? 3 : e.types[l] == kContract ? 2 : 1; };
  for (size_t i = 0; i + 1 < labels.size(); ++i) {
    const int a = rank(labels[i]), b = rank(labels[i + 1]);
    if (a > b || (a == b && labels[i] > labels[i + 1])) return false;
  }
  return true;
}

// `in` (dims by `labels`) transposed so that its dims follow `order` (a permutation of labels).
template <typename T>
std::vector<T> transpose(const T* in, const std::vector<int>& labels, const std::vector<int>& order,
                         const std::vector<int64_t>& size) {
  const size_t r = labels.size();
  std::vector<int64_t> stride(r, 1);
  for (size_t d = r; d-- > 1;) stride[d - 1] = stride[d] * size[labels[d]];
  std::vector<int64_t> src_stride(r), out_dims(r);
  for (size_t j = 0; j < r; ++j) {
    const size_t d = std::find(labels.begin(), labels.end(), order[j]) - labels.begin();
    src_stride[j] = stride[d];
    out_dims[j] = size[order[j]];
  }
  int64_t n = 1;
  for (int64_t v : out_dims) n *= v;
  std::vector<T> out(static_cast<size_t>(n));
  std::vector<int64_t> idx(r, 0);
  int64_t src = 0;
  for (int64_t k = 0; k < n; ++k) {
    out[static_cast<size_t>(k)] = in[src];
    for (size_t j = r; j-- > 0;) {
      if (++idx[j] < out_dims[j]) {
        src += src_stride[j];
        break;
      }
      src -= src_stride[j] * (out_dims[j] - 1);
      idx[j] = 0;
    }
  }
  return out;
}

// Operand i's elements by its labels taken once: the diagonal where a label repeats (each
// element copied from where all of that label's dims have the same index), else the input.
template <typename T>
const T* operand_data(const Tensor& x, const Equation& e, size_t i,
                      const std::vector<int64_t>& size, std::vector<T>& diagonal) {
  const std::vector<int>&raw = e.raw[i], &once = e.inputs[i];
  if (raw.size() == once.size()) return x.data<T>();
  std::vector<int64_t> stride(raw.size(), 1), label_stride(static_cast<size_t>(e.num_labels), 0);
  for (size_t d = raw.size(); d-- > 1;) stride[d - 1] = stride[d] * size[raw[d]];
  for (size_t d = 0; d < raw.size(); ++d) label_stride[raw[d]] += stride[d];
  int64_t n = 1;
  for (int l : once) n *= size[l];
  diagonal.assign(static_cast<size_t>(n), T());
  std::vector<int64_t> idx(once.size(), 0);
  const T* in = x.data<T>();
  int64_t src = 0;
  for (int64_t k = 0; k < n; ++k) {
    diagonal[static_cast<size_t>(k)] = in[src];
    for (size_t j = once.size(); j-- > 0;) {
      if (++idx[j] < size[once[j]]) {
        src += label_stride[once[j]];
        break;
      }
      src -= label_stride[once[j]] * (size[once[j]] - 1);
      idx[j] = 0;
    }
  }
  return diagonal.data();
}

template <typename T, bool = std::is_integral_v<T>>
struct Accumulator {
  using type = T;
};
template <typename T>
struct Accumulator<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <typename T>
void batch_product(const T* a, bool ta, const T* b, bool tb, int64_t m, int64_t k, int64_t n,
                   int64_t batch, T* c) {
  for (int64_t i = 0; i < batch; ++i) {
    const T* x = a + i * m * k;
    const T* y = b + i * k * n;
    T* z = c + i * m * n;
    if constexpr (std::is_same_v<T, float>) {
      detail::tf_batch_matmul_f32(x, ta, y, tb, m, k, n, i, batch, false, z);
    } else {
      // Integers wrap as TF's do (in unsigned arithmetic here, where a signed overflow would be
      // undefined).
      using A = typename Accumulator<T>::type;
      for (int64_t r = 0; r < m; ++r) {
        for (int64_t col = 0; col < n; ++col) {
          A acc = A(0);
          for (int64_t j = 0; j < k; ++j) {
            acc += static_cast<A>(ta ? x[j * m + r] : x[r * k + j]) *
                   static_cast<A>(tb ? y[col * k + j] : y[j * n + col]);
          }
          z[r * n + col] = static_cast<T>(acc);
        }
      }
    }
  }
}

template <typename T>
void einsum_kernel(OpKernelContext& ctx, const Equation& e, const std::vector<int64_t>& size) {
  std::vector<T> diagonal[2];
  const T* data[2] = {};
  for (size_t i = 0; i < e.inputs.size(); ++i)
    data[i] = operand_data<T>(ctx.input(static_cast<int>(i)), e, i, size, diagonal[i]);
  if (e.inputs.size() == 1) {
    const Tensor& x = ctx.input(0);
    std::vector<int64_t> dims;
    for (int l : e.output) dims.push_back(size[l]);
    Tensor& out = ctx.allocate_output(0, x.dtype(), Shape(dims));
    std::vector<T> t = transpose(data[0], e.inputs[0], e.output, size);
    std::copy(t.begin(), t.end(), out.data<T>());
    return;
  }
  auto product_of = [&](DimType type, const std::vector<int>& labels) {
    int64_t p = 1;
    for (int l : labels) p *= e.types[l] == type ? size[l] : 1;
    return p;
  };
  std::vector<int> batch_labels, frees[2];
  for (int l : e.inputs[0]) {
    if (e.types[l] == kBatch) batch_labels.push_back(l);
  }
  std::sort(batch_labels.begin(), batch_labels.end());
  std::vector<T> operand[2];
  bool swapped[2];
  for (int i = 0; i < 2; ++i) {
    const std::vector<int>& labels = e.inputs[i];
    std::vector<int> order = labels;
    swapped[i] = already_batch_contract_free(labels, e);
    if (!swapped[i]) {
      std::sort(order.begin(), order.end(),
                [&](int a, int b) { return std::tie(e.types[a], a) < std::tie(e.types[b], b); });
    }
    for (int l : order) {
      if (e.types[l] == kFree) frees[i].push_back(l);
    }
    operand[i] = transpose(data[i], labels, order, size);
    // TF reshapes each operand to [batch, free, contract] (or [batch, contract, free]); the
    // batch dims must come in the same order in both, which sorting (or the check) ensures.
  }
  const int64_t batch = product_of(kBatch, e.inputs[0]);
  const int64_t m = product_of(kFree, e.inputs[0]), n = product_of(kFree, e.inputs[1]);
  const int64_t k = product_of(kContract, e.inputs[0]);
  std::vector<T> product(static_cast<size_t>(batch * m * n));
  if (batch * m * n > 0) {
    if (k == 0) {
      std::fill(product.begin(), product.end(), T(0));
    } else {
      batch_product(operand[0].data(), swapped[0], operand[1].data(), !swapped[1], m, k, n, batch,
                    product.data());
    }
  }
  std::vector<int> product_labels = batch_labels;
  product_labels.insert(product_labels.end(), frees[0].begin(), frees[0].end());
  product_labels.insert(product_labels.end(), frees[1].begin(), frees[1].end());
  std::vector<int64_t> dims;
  for (int l : e.output) dims.push_back(size[l]);
  Tensor& out = ctx.allocate_output(0, ctx.input(0).dtype(), Shape(dims));
  std::vector<T> t = transpose(product.data(), product_labels, e.output, size);
  std::copy(t.begin(), t.end(), out.data<T>());
}

OpRegistration r_einsum([] {
  OpDef d;
  d.name = "Einsum";
  d.inputs = {{"inputs", "T", DType::kInvalid, "N"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64}}};
  d.shape_fn = [](InferenceContext& c) {
    const std::string& eq = attr_string(*c.attrs, "equation");
    const Equation e = parse(eq, c.num_inputs());
    std::vector<std::vector<int64_t>> dims;
    for (int i = 0; i < c.num_inputs(); ++i) {
      if (!c.in(i).has_rank()) {
        c.set_output(0, PartialShape());
        return;
      }
      dims.push_back(c.in(i).dims());
    }
    const std::vector<int64_t> size =
        label_sizes(e, dims, eq, true, [&](const std::string& m) { c.fail(m); });
    std::vector<int64_t> out;
    for (int l : e.output) out.push_back(size[l]);
    c.set_output(0, PartialShape(out));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const std::string& eq = attr_string(*ctx.attrs, "equation");
    const Equation e = parse(eq, ctx.num_inputs());
    std::vector<std::vector<int64_t>> dims;
    for (int i = 0; i < ctx.num_inputs(); ++i) dims.push_back(ctx.input(i).eager_shape().dims());
    const std::vector<int64_t> size =
        label_sizes(e, dims, eq, false, [&](const std::string& m) { ctx.fail(m); });
    switch (ctx.input(0).dtype()) {
      case DType::kFloat32:
        return einsum_kernel<float>(ctx, e, size);
      case DType::kFloat64:
        return einsum_kernel<double>(ctx, e, size);
      case DType::kInt32:
        return einsum_kernel<int32_t>(ctx, e, size);
      default:
        return einsum_kernel<int64_t>(ctx, e, size);
    }
  };
  return d;
}());

}  // namespace
}  // namespace tfs
