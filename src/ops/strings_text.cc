// The text-processing string kernels: StringSplitV2 (tf.strings.split's sparse form) and
// StringSplit (the v1 op tf.strings.bytes_split runs), the RE2
// regex ops (StaticRegexReplace/RegexReplace, StaticRegexFullMatch/RegexFullMatch: TF runs RE2,
// so does tfscope), AsString (TF's printf format built from the attrs), StringToHashBucketFast
// (farmhash's Fingerprint64, TF's fingerprint) and ReduceJoin, with TF's texts.
#include <farmhash.h>
#include <re2/re2.h>

#include <cinttypes>
#include <cstdio>
#include <functional>
#include <memory>

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// ---- StringSplitV2 ----

// Python's str.split(): runs of ASCII whitespace separate tokens, none at either end; after
// maxsplit splits the rest (leading whitespace dropped) is the last token.
void split_whitespace(const std::string& s, int64_t maxsplit, std::vector<std::string>& out) {
  auto is_ws = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  size_t i = 0, n = s.size();
  int64_t splits = 0;
  while (true) {
    while (i < n && is_ws(s[i])) ++i;
    if (i == n) return;
    if (maxsplit >= 0 && splits == maxsplit) {
      out.push_back(s.substr(i));
      return;
    }
    size_t b = i;
    while (i < n && !is_ws(s[i])) ++i;
    out.push_back(s.substr(b, i - b));
    ++splits;
  }
}

// Python's str.split(sep): every occurrence separates, so "" gives [""].
void split_sep(const std::string& s, const std::string& sep, int64_t maxsplit,
               std::vector<std::string>& out) {
  size_t b = 0;
  int64_t splits = 0;
  while (maxsplit < 0 || splits < maxsplit) {
    size_t at = s.find(sep, b);
    if (at == std::string::npos) break;
    out.push_back(s.substr(b, at - b));
    b = at + sep.size();
    ++splits;
  }
  out.push_back(s.substr(b));
}

// StringSplitV2 (`sep`) and StringSplit (`delimiter`, tf.strings.bytes_split's): a vector of
// strings split by `split` into the sparse form (indices, values, dense shape).
using Splitter = std::function<void(const std::string& s, const std::string& sep,
                                    const AttrMap& attrs, std::vector<std::string>& out)>;

OpDef split_def(const std::string& name, const std::string& sep_name, Splitter split) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "", DType::kString}, {sep_name, "", DType::kString}};
  d.outputs = {
      {"indices", "", DType::kInt64}, {"values", "", DType::kString}, {"shape", "", DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 1);
    detail::with_rank(c, c.in(1), 0);
    c.set_output(0, PartialShape({-1, 2}));
    c.set_output(1, PartialShape({-1}));
    c.set_output(2, PartialShape({2}));
  };
  d.kernel = [sep_name, split = std::move(split)](OpKernelContext& ctx) {
    const Tensor &in = ctx.input(0), &sep_t = ctx.input(1);
    if (in.eager_shape().rank() != 1)
      ctx.fail("input must be a vector, got shape: " + detail::dims_text(in.eager_shape()));
    if (sep_t.eager_shape().rank() != 0)
      ctx.fail(sep_name +
               " must be a scalar, got shape: " + detail::dims_text(sep_t.eager_shape()));
    const std::string& sep = sep_t.string_values()[0];
    std::vector<int64_t> rows;
    std::vector<std::string> tokens;
    int64_t widest = 0;
    const auto& strs = in.string_values();
    for (size_t r = 0; r < strs.size(); ++r) {
      const size_t before = tokens.size();
      split(strs[r], sep, *ctx.attrs, tokens);
      widest = std::max<int64_t>(widest, static_cast<int64_t>(tokens.size() - before));
      rows.resize(tokens.size(), static_cast<int64_t>(r));
    }
    const int64_t n = static_cast<int64_t>(tokens.size());
    Tensor& idx = ctx.allocate_output(0, DType::kInt64, Shape({n, 2}));
    int64_t col = 0;
    for (int64_t k = 0; k < n; ++k) {
      col =
          (k > 0 && rows[static_cast<size_t>(k)] == rows[static_cast<size_t>(k - 1)]) ? col + 1 : 0;
      idx.data<int64_t>()[2 * k] = rows[static_cast<size_t>(k)];
      idx.data<int64_t>()[2 * k + 1] = col;
    }
    Tensor& vals = ctx.allocate_output(1, DType::kString, Shape({n}));
    vals.mutable_string_values() = std::move(tokens);
    Tensor& shape = ctx.allocate_output(2, DType::kInt64, Shape({2}));
    shape.data<int64_t>()[0] = static_cast<int64_t>(strs.size());
    shape.data<int64_t>()[1] = widest;
  };
  return d;
}

OpRegistration r_split(split_def("StringSplitV2", "sep",
                                 [](const std::string& s, const std::string& sep,
                                    const AttrMap& attrs, std::vector<std::string>& out) {
                                   const int64_t maxsplit = attr_int_or(attrs, "maxsplit", -1);
                                   if (sep.empty())
                                     split_whitespace(s, maxsplit, out);
                                   else
                                     split_sep(s, sep, maxsplit, out);
                                 }));

// StringSplit: on any one of the delimiter's bytes (empty tokens dropped unless skip_empty is
// false), or into single bytes when the delimiter is empty (an empty string gives none).
void split_any(const std::string& s, const std::string& delims, bool skip_empty,
               std::vector<std::string>& out) {
  if (delims.empty()) {
    for (char c : s) out.emplace_back(1, c);
    return;
  }
  size_t b = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && delims.find(s[i]) == std::string::npos) continue;
    if (!skip_empty || i > b) out.push_back(s.substr(b, i - b));
    b = i + 1;
  }
}

OpRegistration r_split_v1(split_def("StringSplit", "delimiter",
                                    [](const std::string& s, const std::string& delims,
                                       const AttrMap& attrs, std::vector<std::string>& out) {
                                      split_any(s, delims, attr_bool_or(attrs, "skip_empty", true),
                                                out);
                                    }));

// ---- regex ops (RE2, as TF) ----

std::unique_ptr<RE2> compile(OpKernelContext& ctx, const std::string& pattern) {
  auto re = std::make_unique<RE2>(pattern, RE2::Quiet);
  if (!re->ok()) ctx.fail("Invalid pattern: " + pattern + ", error: " + re->error());
  return re;
}

void regex_replace(OpKernelContext& ctx, const std::string& pattern, const std::string& rewrite) {
  auto re = compile(ctx, pattern);
  const bool global = attr_bool_or(*ctx.attrs, "replace_global", true);
  const Tensor& in = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, DType::kString, in.eager_shape());
  auto& o = out.mutable_string_values();
  const auto& v = in.string_values();
  for (size_t i = 0; i < v.size(); ++i) {
    o[i] = v[i];
    if (global) {
      RE2::GlobalReplace(&o[i], *re, rewrite);
    } else {
      RE2::Replace(&o[i], *re, rewrite);
    }
  }
}

void regex_full_match(OpKernelContext& ctx, const std::string& pattern) {
  auto re = compile(ctx, pattern);
  const Tensor& in = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, DType::kBool, in.eager_shape());
  const auto& v = in.string_values();
  for (size_t i = 0; i < v.size(); ++i) out.data<bool>()[i] = RE2::FullMatch(v[i], *re);
}

const std::string& scalar_string(OpKernelContext& ctx, int i, const char* what) {
  const Tensor& t = ctx.input(i);
  if (t.eager_shape().rank() != 0)
    ctx.fail(std::string(what) + " must be scalar, but received " +
             detail::dims_text(t.eager_shape()));
  return t.string_values()[0];
}

OpDef string_to(const std::string& name, DType out, std::vector<ArgDef> extra_inputs, Kernel k) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "", DType::kString}};
  for (auto& a : extra_inputs) d.inputs.push_back(a);
  d.outputs = {{"output", "", out}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = std::move(k);
  return d;
}

OpRegistration r_static_replace(string_to("StaticRegexReplace", DType::kString, {},
                                          [](OpKernelContext& ctx) {
                                            regex_replace(ctx, attr_string(*ctx.attrs, "pattern"),
                                                          attr_string(*ctx.attrs, "rewrite"));
                                          }));
OpRegistration r_replace(string_to(
    "RegexReplace", DType::kString,
    {{"pattern", "", DType::kString}, {"rewrite", "", DType::kString}}, [](OpKernelContext& ctx) {
      regex_replace(ctx, scalar_string(ctx, 1, "Pattern"), scalar_string(ctx, 2, "Rewrite"));
    }));
OpRegistration r_static_match(string_to("StaticRegexFullMatch", DType::kBool, {},
                                        [](OpKernelContext& ctx) {
                                          regex_full_match(ctx, attr_string(*ctx.attrs, "pattern"));
                                        }));
OpRegistration r_match(string_to("RegexFullMatch", DType::kBool, {{"pattern", "", DType::kString}},
                                 [](OpKernelContext& ctx) {
                                   regex_full_match(ctx, scalar_string(ctx, 1, "Pattern"));
                                 }));

// ---- StringToHashBucketFast: Fingerprint64 modulo the bucket count ----

OpRegistration r_hash_fast(
    string_to("StringToHashBucketFast", DType::kInt64, {}, [](OpKernelContext& ctx) {
      const int64_t buckets = attr_int(*ctx.attrs, "num_buckets");
      if (buckets < 1) {
        ctx.fail("Value for attr 'num_buckets' of " + std::to_string(buckets) +
                 " must be at least minimum 1");
      }
      const Tensor& in = ctx.input(0);
      Tensor& out = ctx.allocate_output(0, DType::kInt64, in.eager_shape());
      const auto& v = in.string_values();
      for (size_t i = 0; i < v.size(); ++i) {
        out.data<int64_t>()[i] = static_cast<int64_t>(
            util::Fingerprint64(v[i].data(), v[i].size()) % static_cast<uint64_t>(buckets));
      }
    }));

// ---- AsString: TF builds one printf format from the attrs ----

// The dtypes of TF's AsString that tfscope has (TF's list adds the 16-bit floats, the wider
// unsigned ints, complex and variant).
std::vector<DType> as_string_types() {
  return {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt8, DType::kInt16,
          DType::kInt8,    DType::kInt64,   DType::kBool,  DType::kString};
}

template <typename... A>
std::string printf_str(const std::string& fmt, A... args) {
  int n = std::snprintf(nullptr, 0, fmt.c_str(), args...);
  std::string s(static_cast<size_t>(std::max(n, 0)), '\0');
  std::snprintf(s.data(), s.size() + 1, fmt.c_str(), args...);
  return s;
}

OpRegistration r_as_string([] {
  OpDef d;
  d.name = "AsString";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "", DType::kString}};
  d.type_attrs = {{"T", as_string_types()}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const AttrMap& a = *ctx.attrs;
    const Tensor& in = ctx.input(0);
    const DType dt = in.dtype();
    const int64_t precision = attr_int_or(a, "precision", -1);
    const bool scientific = attr_bool_or(a, "scientific", false);
    const bool shortest = attr_bool_or(a, "shortest", false);
    const int64_t width = attr_int_or(a, "width", -1);
    const std::string fill = attr_string_or(a, "fill", "");
    if (scientific && shortest) ctx.fail("Cannot select both scientific and shortest notation");
    std::string fmt = "%";
    if (fill.size() > 1) ctx.fail("Fill string must be one or fewer characters");
    if (!fill.empty()) {
      if (std::string(" +-0#").find(fill[0]) == std::string::npos)
        ctx.fail("Fill argument not supported: \"" + fill + "\"");
      fmt += fill;
    }
    if (width > -1) fmt += std::to_string(width);
    if (precision > -1) {
      if (!is_floating(dt))
        ctx.fail("precision not supported for datatype " + std::string(dtype_name(dt)));
      fmt += "." + std::to_string(precision);
    }
    if ((scientific || shortest) && !is_floating(dt)) {
      ctx.fail("scientific and shortest format not supported for datatype " +
               std::string(dtype_name(dt)));
    }
    const char* float_conv = scientific ? "e" : shortest ? "g" : "f";
    Tensor& out = ctx.allocate_output(0, DType::kString, in.eager_shape());
    auto& o = out.mutable_string_values();
    const int64_t n = in.eager_shape().num_elements();
    for (int64_t i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      switch (dt) {
        case DType::kBool:
          o[k] = in.data<bool>()[k] ? "true" : "false";
          break;
        case DType::kString:
          o[k] = printf_str(fmt + "s", in.string_values()[k].c_str());
          break;
        default:
          visit_dtype(dt, [&](auto tag) {
            using T = decltype(tag);
            if constexpr (std::is_floating_point_v<T>) {
              o[k] = printf_str(fmt + float_conv, static_cast<double>(in.data<T>()[k]));
            } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
              o[k] = printf_str(fmt + "lld", static_cast<long long>(in.data<T>()[k]));
            } else if constexpr (std::is_integral_v<T>) {
              o[k] = printf_str(fmt + "llu", static_cast<unsigned long long>(in.data<T>()[k]));
            }
          });
      }
    }
  };
  return d;
}());

// ---- ReduceJoin: the first listed axis varies fastest in each joined string ----

OpRegistration r_reduce_join([] {
  OpDef d;
  d.name = "ReduceJoin";
  d.inputs = {{"inputs", "", DType::kString}, {"reduction_indices", "", DType::kInt32}};
  d.outputs = {{"output", "", DType::kString}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    std::optional<std::vector<int64_t>> axes = detail::const_ints(c, 1);
    const bool keep = attr_bool_or(*c.attrs, "keep_dims", false);
    if (!in.has_rank() || !axes) {
      c.set_output(0, PartialShape::unknown());
      return;
    }
    std::vector<bool> reduced(static_cast<size_t>(in.rank()), false);
    for (int64_t ax : *axes) {
      const int64_t r = in.rank();
      if (ax < -r || ax >= r) {
        c.fail("Invalid reduction dimension " + std::to_string(ax) + " for input with " +
               std::to_string(r) + " dimension(s)");
      }
      reduced[static_cast<size_t>(ax < 0 ? ax + r : ax)] = true;
    }
    std::vector<int64_t> dims;
    for (int64_t i = 0; i < in.rank(); ++i) {
      if (!reduced[static_cast<size_t>(i)]) {
        dims.push_back(in.dim(i));
      } else if (keep) {
        dims.push_back(1);
      }
    }
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& in = ctx.input(0);
    const Shape& s = in.eager_shape();
    const int r = s.rank();
    const std::vector<int64_t> axes_in = detail::tensor_ints(ctx.input(1));
    const std::string sep = attr_string_or(*ctx.attrs, "separator", "");
    const bool keep = attr_bool_or(*ctx.attrs, "keep_dims", false);
    std::vector<int> axes;
    std::vector<bool> reduced(static_cast<size_t>(r), false);
    for (int64_t ax : axes_in) {
      if (ax < -r || ax >= r) {
        throw Error(ErrorKind::kOutOfRange, "Invalid reduction dimension " + std::to_string(ax) +
                                                " for input with " + std::to_string(r) +
                                                " dimension(s)");
      }
      const int a = static_cast<int>(ax < 0 ? ax + r : ax);
      if (reduced[static_cast<size_t>(a)])
        ctx.fail("Duplicate reduction dimension " + std::to_string(a));
      reduced[static_cast<size_t>(a)] = true;
      axes.push_back(a);
    }
    std::vector<int64_t> out_dims, kept;
    for (int i = 0; i < r; ++i) {
      if (!reduced[static_cast<size_t>(i)]) {
        out_dims.push_back(s.dim(i));
        kept.push_back(i);
      } else if (keep) {
        out_dims.push_back(1);
      }
    }
    std::vector<int64_t> stride(static_cast<size_t>(r), 1);
    for (int i = r - 2; i >= 0; --i)
      stride[static_cast<size_t>(i)] = stride[static_cast<size_t>(i + 1)] * s.dim(i + 1);
    Shape out_shape(out_dims);
    Tensor& out = ctx.allocate_output(0, DType::kString, out_shape);
    int64_t inner = 1;
    for (int a : axes) inner *= s.dim(a);
    const auto& v = in.string_values();
    std::vector<int64_t> kept_stride(kept.size(), 1);
    for (int i = static_cast<int>(kept.size()) - 2; i >= 0; --i) {
      kept_stride[static_cast<size_t>(i)] =
          kept_stride[static_cast<size_t>(i + 1)] *
          s.dim(static_cast<int>(kept[static_cast<size_t>(i + 1)]));
    }
    const int64_t n_out = out_shape.num_elements();
    for (int64_t o = 0; o < n_out; ++o) {
      int64_t base = 0;
      for (size_t j = 0; j < kept.size(); ++j) {
        base += (o / kept_stride[j]) % s.dim(static_cast<int>(kept[j])) *
                stride[static_cast<size_t>(kept[j])];
      }
      std::string joined;
      for (int64_t m = 0; m < inner; ++m) {
        int64_t off = base, rest = m;
        for (int a : axes) {  // the first listed axis varies fastest
          off += (rest % s.dim(a)) * stride[static_cast<size_t>(a)];
          rest /= s.dim(a);
        }
        if (m) joined += sep;
        joined += v[static_cast<size_t>(off)];
      }
      out.mutable_string_values()[static_cast<size_t>(o)] = std::move(joined);
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_string_text_ops() {}
}  // namespace detail
}  // namespace tfs
