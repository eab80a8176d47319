// The ops behind tf.debugging and tf.ensure_shape: Assert (the data summarised as TF's legacy
// Tensor::SummarizeValue writes it), CheckNumerics and EnsureShape, with TF 2.21's texts.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// strings::StrCat of a float or double (FloatToBuffer / DoubleToBuffer): %.6g (%.15g) when it
// reads back as the same value, else %.9g (%.17g).
template <typename T>
std::string strcat_float(T v) {
  constexpr bool is_f = std::is_same_v<T, float>;
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", is_f ? FLT_DIG : DBL_DIG, static_cast<double>(v));
  T back =
      is_f ? static_cast<T>(std::strtof(buf, nullptr)) : static_cast<T>(std::strtod(buf, nullptr));
  if (back != v) {
    std::snprintf(buf, sizeof buf, "%.*g", is_f ? FLT_DIG + 3 : DBL_DIG + 2,
                  static_cast<double>(v));
  }
  return buf;
}

// absl::CEscape: \n \r \t \" \' \\ by name, other non-printable bytes as three octal digits.
std::string c_escape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char b[5];
          std::snprintf(b, sizeof b, "\\%03o", c);
          out += b;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string element_text(const Tensor& t, int64_t i) {
  if (t.dtype() == DType::kString) return c_escape(t.string_values()[static_cast<size_t>(i)]);
  std::string out;
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T v = t.data<T>()[i];
    if constexpr (std::is_same_v<T, bool>) {
      out = v ? "1" : "0";
    } else if constexpr (std::is_floating_point_v<T>) {
      out = strcat_float(v);
    } else {
      out = std::to_string(static_cast<int64_t>(v));
    }
  });
  return out;
}

// One dimension of the legacy summary: the last dim's elements separated by spaces, the outer
// ones bracketed, "..." where the limit cuts a row short.
void print_dim(const Tensor& t, int dim, int64_t limit, int64_t& at, std::string& out) {
  const Shape& s = t.eager_shape();
  if (at >= limit) return;
  const int64_t n = s.dim(dim);
  if (dim == s.rank() - 1) {
    for (int64_t i = 0; i < n; ++i) {
      if (at >= limit) {
        if (dim != 0) out += "...";
        return;
      }
      if (i > 0) out += " ";
      out += element_text(t, at++);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    bool opened = false;
    if (at < limit) {
      out += "[";
      opened = true;
    }
    print_dim(t, dim + 1, limit, at, out);
    if (at < limit || opened) out += "]";
  }
}

// Tensor::SummarizeValue(max_entries) without print_v2: "1 2 3...", "[1 2][3...]...".
std::string summarize_legacy(const Tensor& t, int64_t max_entries) {
  const int64_t n = t.num_elements();
  const int64_t limit = max_entries < 0 ? n : std::min(max_entries, n);
  std::string out;
  if (t.eager_shape().rank() == 0) {
    if (limit > 0) out = element_text(t, 0);
  } else {
    int64_t at = 0;
    print_dim(t, 0, limit, at, out);
  }
  if (n > limit) out += "...";
  return out;
}

OpRegistration r_assert([] {
  OpDef d;
  d.name = "Assert";
  d.inputs = {{"condition", "", DType::kBool}, {"data", "", DType::kInvalid, "", "T"}};
  d.stateful = true;
  d.shape_fn = [](InferenceContext&) {};
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& c = ctx.input(0);
    if (c.eager_shape().rank() != 0) {
      ctx.fail("In[0] should be a scalar: " + detail::dims_text(c.eager_shape()));
    }
    if (c.data<bool>()[0]) return;
    const int64_t summarize = attr_int_or(*ctx.attrs, "summarize", 3);
    std::string msg = "assertion failed: ";
    for (int i = 1; i < ctx.num_inputs(); ++i) {
      if (i > 1) msg += " ";
      msg += "[" + summarize_legacy(ctx.input(i), summarize) + "]";
    }
    ctx.fail(msg);
  };
  return d;
}());

// TF also allows bfloat16 and half, which tfscope has no dtype for.
const std::vector<DType> kCheckNumericsTypes = {DType::kFloat32, DType::kFloat64};

OpRegistration r_check_numerics([] {
  OpDef d;
  d.name = "CheckNumerics";
  d.inputs = {{"tensor", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", kCheckNumericsTypes}};
  d.stateful = true;
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, c.in(0)); };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& t = ctx.input(0);
    bool nan = false, inf = false;
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        const T* p = t.data<T>();
        for (int64_t i = 0; i < t.num_elements(); ++i) {
          nan = nan || std::isnan(p[i]);
          inf = inf || std::isinf(p[i]);
        }
      }
    });
    if (nan || inf) {
      const char* what = nan && inf ? "Inf and NaN" : inf ? "Inf" : "NaN";
      ctx.fail(attr_string(*ctx.attrs, "message") + " : Tensor had " + what + " values");
    }
    ctx.set_output(0, t);
  };
  return d;
}());

OpRegistration r_ensure_shape([] {
  OpDef d;
  d.name = "EnsureShape";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  // TF merges the attr's shape with the input's, in that order (its Merge texts).
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& want = attr_shape(*c.attrs, "shape");
    const PartialShape& in = c.in(0);
    std::optional<PartialShape> m = want.merge_with(in);
    if (!m) {
      if (want.rank() != in.rank()) {
        c.fail("Shapes must be equal rank, but are " + std::to_string(want.rank()) + " and " +
               std::to_string(in.rank()));
      }
      for (int i = 0; i < in.rank(); ++i) {
        if (in.dim(i) >= 0 && want.dim(i) >= 0 && in.dim(i) != want.dim(i)) {
          c.fail("Dimension " + std::to_string(i) + " in both shapes must be equal, but are " +
                 std::to_string(want.dim(i)) + " and " + std::to_string(in.dim(i)) +
                 ". Shapes are " + detail::shape_text(want) + " and " + detail::shape_text(in) +
                 ".");
        }
      }
    }
    c.set_output(0, *m);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& t = ctx.input(0);
    const PartialShape& want = attr_shape(*ctx.attrs, "shape");
    if (!want.is_compatible_with(PartialShape(t.eager_shape()))) {
      // TF names the tensor as the NodeDef's input does: "input" eagerly, the producing node
      // ("x") in a graph; tfscope's kernels do not see graph inputs' names, so "input" always.
      ctx.fail("Shape of tensor input " + detail::dims_text(t.eager_shape()) +
               " is not compatible with expected shape " +
               (want.has_rank() ? detail::shape_text(want) : std::string("<unknown>")) + ".");
    }
    ctx.set_output(0, t);
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_check_ops() {}
}  // namespace detail
}  // namespace tfs
