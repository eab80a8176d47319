// String kernels: the legacy Add op, which TF's `+` builds for tf.string (math_ops._add_dispatch;
// AddV2 has no string kernel): elementwise concatenation with numpy broadcasting (numbers take
// AddV2's kernel); StringLower/Upper (byte encoding), StringStrip, StringLength, StringToNumber
// and StringJoin with TF's texts.
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// The flat index into an input of shape `in` (right-aligned to `out`, size-1 dims broadcast) of
// output element `i`.
int64_t broadcast_index(const Shape& out, const Shape& in, int64_t i) {
  int64_t idx = 0, stride = 1;
  for (int d = out.rank() - 1, k = in.rank() - 1; d >= 0; --d, --k) {
    const int64_t coord = i % out.dim(d);
    i /= out.dim(d);
    if (k >= 0) {
      if (in.dim(k) != 1) idx += coord * stride;
      stride *= in.dim(k);
    }
  }
  return idx;
}

std::vector<DType> add_types() {
  std::vector<DType> t = detail::kNumberTypes;
  t.push_back(DType::kString);
  return t;
}

OpRegistration r_add_legacy([] {
  OpDef d;
  d.name = "Add";
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {{"z", "T"}};
  d.type_attrs = {{"T", add_types()}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    if (x.dtype() != DType::kString) {
      OpRegistry::global().get("AddV2").kernel(ctx);
      return;
    }
    const Shape &sx = x.eager_shape(), &sy = y.eager_shape();
    std::optional<Shape> so = broadcast_shapes(sx, sy);
    if (!so) {
      ctx.fail("Incompatible shapes: " + detail::dims_text(sx) + " vs. " + detail::dims_text(sy));
    }
    Tensor& out = ctx.allocate_output(0, DType::kString, *so);
    auto& o = out.mutable_string_values();
    const auto &xv = x.string_values(), &yv = y.string_values();
    for (int64_t i = 0; i < so->num_elements(); ++i) {
      o[static_cast<size_t>(i)] = xv[static_cast<size_t>(broadcast_index(*so, sx, i))] +
                                  yv[static_cast<size_t>(broadcast_index(*so, sy, i))];
    }
  };
  return d;
}());

// ---- elementwise string ops (tf.strings.lower/upper/strip/length/to_number/join) ----

// An elementwise string -> T op over the input's elements.
template <typename F>
void map_strings(OpKernelContext& ctx, DType out_type, F f) {
  const Tensor& in = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, out_type, in.eager_shape());
  const auto& v = in.string_values();
  for (size_t i = 0; i < v.size(); ++i) f(v[i], out, i);
}

OpDef string_unary(const std::string& name, DType out, std::function<void(OpKernelContext&)> k) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "", DType::kString}};
  d.outputs = {{"output", "", out}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, c.in(0)); };
  d.kernel = std::move(k);
  return d;
}

void change_case(OpKernelContext& ctx, bool upper) {
  const std::string& enc = attr_string_or(*ctx.attrs, "encoding", "");
  if (!enc.empty())
    ctx.fail("[ops] only the default (byte) encoding of " + *ctx.op_name + " is supported");
  map_strings(ctx, DType::kString, [upper](const std::string& s, Tensor& out, size_t i) {
    std::string r = s;
    for (char& c : r)
      c = static_cast<char>(upper ? std::toupper(static_cast<unsigned char>(c))
                                  : std::tolower(static_cast<unsigned char>(c)));
    out.mutable_string_values()[i] = std::move(r);
  });
}

OpRegistration r_lower(string_unary("StringLower", DType::kString,
                                    [](OpKernelContext& ctx) { change_case(ctx, false); }));
OpRegistration r_upper(string_unary("StringUpper", DType::kString,
                                    [](OpKernelContext& ctx) { change_case(ctx, true); }));

// absl::StripAsciiWhitespace: " \t\n\v\f\r" at both ends.
OpRegistration r_strip(string_unary("StringStrip", DType::kString, [](OpKernelContext& ctx) {
  map_strings(ctx, DType::kString, [](const std::string& s, Tensor& out, size_t i) {
    const char* ws = " \t\n\v\f\r";
    const size_t b = s.find_first_not_of(ws);
    out.mutable_string_values()[i] =
        b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(ws) - b + 1);
  });
}));

// Bytes, or UTF-8 characters (the bytes that do not continue a character).
OpRegistration r_length(string_unary("StringLength", DType::kInt32, [](OpKernelContext& ctx) {
  const bool chars = attr_string_or(*ctx.attrs, "unit", "BYTE") == "UTF8_CHAR";
  map_strings(ctx, DType::kInt32, [chars](const std::string& s, Tensor& out, size_t i) {
    int32_t n = static_cast<int32_t>(s.size());
    if (chars) {
      n = 0;
      for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    }
    out.data<int32_t>()[i] = n;
  });
}));

// strings::SafeStringToNumeric: surrounding ASCII whitespace allowed, the rest must parse whole.
template <typename T>
bool parse_number(const std::string& s, T& out) {
  const char* ws = " \t\n\v\f\r";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return false;
  const std::string t = s.substr(b, s.find_last_not_of(ws) - b + 1);
  char* end = nullptr;
  errno = 0;
  if constexpr (std::is_floating_point_v<T>) {
    out = std::is_same_v<T, float> ? static_cast<T>(std::strtof(t.c_str(), &end))
                                   : static_cast<T>(std::strtod(t.c_str(), &end));
  } else {
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (v < std::numeric_limits<T>::min() || v > std::numeric_limits<T>::max()) return false;
    out = static_cast<T>(v);
  }
  return end == t.c_str() + t.size() && (std::is_floating_point_v<T> || errno != ERANGE);
}

OpRegistration r_to_number([] {
  OpDef d = string_unary("StringToNumber", DType::kInvalid, [](OpKernelContext& ctx) {
    const DType dt = attr_type(*ctx.attrs, "out_type");
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> ||
                    std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>) {
        map_strings(ctx, dt, [&ctx](const std::string& s, Tensor& out, size_t i) {
          if (!parse_number(s, out.data<T>()[i])) {
            ctx.fail("StringToNumberOp could not correctly convert string: " + s);
          }
        });
      }
    });
  });
  d.inputs = {{"string_tensor", "", DType::kString}};  // TF's arg name (SavedModel op defs)
  d.outputs = {{"output", "out_type"}};
  d.type_attrs = {{"out_type",
                   {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kInt64},
                   DType::kFloat32}};
  return d;
}());

// StringJoin: scalars broadcast against the one shape the other inputs share.
OpRegistration r_join([] {
  OpDef d;
  d.name = "StringJoin";
  d.inputs = {{"inputs", "", DType::kString, "N"}};
  d.outputs = {{"output", "", DType::kString}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape out({});
    for (int i = 0; i < c.num_inputs(); ++i) {
      if (c.in(i).has_rank() && c.in(i).rank() == 0) continue;
      std::optional<PartialShape> m = out.rank() == 0 ? c.in(i) : out.merge_with(c.in(i));
      if (!m) c.fail("Input shapes do not match");
      out = *m;
    }
    c.set_output(0, out);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const std::string& sep = attr_string_or(*ctx.attrs, "separator", "");
    Shape shape{};
    bool have = false;
    for (int i = 0; i < ctx.num_inputs(); ++i) {
      const Shape& s = ctx.input(i).eager_shape();
      if (s.rank() == 0) continue;
      if (have && s != shape) {
        ctx.fail("Input shapes do not match: " + detail::dims_text(shape) + " vs. " +
                 detail::dims_text(s));
      }
      shape = s;
      have = true;
    }
    Tensor& out = ctx.allocate_output(0, DType::kString, shape);
    for (int64_t k = 0; k < shape.num_elements(); ++k) {
      std::string r;
      for (int i = 0; i < ctx.num_inputs(); ++i) {
        const Tensor& t = ctx.input(i);
        if (i) r += sep;
        r += t.string_values()[t.eager_shape().rank() == 0 ? 0 : static_cast<size_t>(k)];
      }
      out.mutable_string_values()[static_cast<size_t>(k)] = std::move(r);
    }
  };
  return d;
}());

// Substr: pos counts from the end when negative, a negative len runs to the end, pos beyond the
// string (either way) is TF's error; pos/len are scalars or of the input's shape. With
// unit UTF8_CHAR, pos and len count characters.
OpRegistration r_substr([] {
  OpDef d;
  d.name = "Substr";
  d.inputs = {{"input", "", DType::kString}, {"pos", "T"}, {"len", "T"}};
  d.outputs = {{"output", "", DType::kString}};
  d.type_attrs = {{"T", detail::kIndexTypes}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const std::vector<int64_t> pos = detail::tensor_ints(ctx.input(1));
    const std::vector<int64_t> len = detail::tensor_ints(ctx.input(2));
    const Shape& shape = in.eager_shape();
    for (int k = 1; k < 3; ++k) {
      const Shape& s = ctx.input(k).eager_shape();
      if (s.rank() != 0 && s != shape) {
        ctx.fail("Incompatible shapes: " + detail::dims_text(shape) + " vs. " +
                 detail::dims_text(s));
      }
    }
    const bool chars = attr_string_or(*ctx.attrs, "unit", "BYTE") == "UTF8_CHAR";
    Tensor& out = ctx.allocate_output(0, DType::kString, shape);
    for (int64_t i = 0; i < shape.num_elements(); ++i) {
      const std::string& str = in.string_values()[static_cast<size_t>(i)];
      // Byte offsets of each character start (every byte for BYTE), and the end.
      std::vector<size_t> starts;
      for (size_t b = 0; b < str.size(); ++b) {
        if (!chars || (static_cast<unsigned char>(str[b]) & 0xC0) != 0x80) starts.push_back(b);
      }
      const int64_t n = static_cast<int64_t>(starts.size());
      starts.push_back(str.size());
      int64_t p = pos.size() == 1 ? pos[0] : pos[static_cast<size_t>(i)];
      const int64_t l = len.size() == 1 ? len[0] : len[static_cast<size_t>(i)];
      if (p > n || p < -n) {
        ctx.fail("pos " + std::to_string(p) + " out of range for string b'" + str + "' at index " +
                 std::to_string(i));
      }
      if (p < 0) p += n;
      const int64_t e = l < 0 ? n : std::min(n, p + l);
      out.mutable_string_values()[static_cast<size_t>(i)] =
          str.substr(starts[static_cast<size_t>(p)],
                     starts[static_cast<size_t>(e)] - starts[static_cast<size_t>(p)]);
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_string_ops() {}
}  // namespace detail
}  // namespace tfs
