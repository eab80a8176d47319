// Strings as bytes and as Unicode characters: DecodeRaw and DecodePaddedRaw (tf.io.decode_raw),
// UnicodeDecode and UnicodeEncode (tf.strings.unicode_decode, unicode_encode, and unicode_split
// through both), with TF's texts. TF converts through ICU's converters; a malformed UTF-8 sequence
// is one error per maximal subpart (the Unicode standard's practice, which ICU follows), each a
// replacement character, skipped or an error as `errors` says. (bytes_split's StringSplit is with
// StringSplitV2 in strings_text.cc.)
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "tfscope/complex.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// ---- DecodeRaw, DecodePaddedRaw: each string's bytes as elements of out_type ----

std::vector<DType> raw_types() {
  return {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt8, DType::kInt16,
          DType::kInt8,    DType::kInt64,   kComplex64,    kComplex128,   DType::kBool};
}

// Writes each string's first `width` bytes (zeros past its end) as one row of the output, of
// input shape + [width / size]. Little-endian bytes on this (little-endian) host are copied;
// big-endian ones reversed per element, per half for the complex types (their two parts
// separately), as TF does.
void write_raw(OpKernelContext& ctx, DType out_type, int64_t width) {
  const Tensor& in = ctx.input(0);
  const bool little_endian = attr_bool_or(*ctx.attrs, "little_endian", true);
  const int64_t size = static_cast<int64_t>(dtype_size(out_type));
  std::vector<int64_t> dims = in.eager_shape().dims();
  dims.push_back(width / size);
  Tensor& out = ctx.allocate_output(0, out_type, Shape(dims));
  auto* dst = static_cast<unsigned char*>(out.raw_data());
  const int64_t unit = is_complex(out_type) ? size / 2 : size;
  for (const std::string& str : in.string_values()) {
    const size_t n = std::min(str.size(), static_cast<size_t>(width));
    std::memcpy(dst, str.data(), n);
    std::memset(dst + n, 0, static_cast<size_t>(width) - n);
    if (!little_endian && size > 1) {
      for (int64_t k = 0; k < width; k += unit) std::reverse(dst + k, dst + k + unit);
    }
    dst += width;
  }
}

void raw_shape_fn(InferenceContext& c) {
  const PartialShape& in = c.in(0);
  if (!in.has_rank()) return c.set_output(0, PartialShape::unknown());
  std::vector<int64_t> dims = in.dims();
  dims.push_back(-1);
  c.set_output(0, PartialShape(dims));
}

OpRegistration r_decode_raw([] {
  OpDef d;
  d.name = "DecodeRaw";
  d.inputs = {{"bytes", "", DType::kString}};
  d.outputs = {{"output", "out_type"}};
  d.type_attrs = {{"out_type", raw_types()}};
  d.shape_fn = raw_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const DType out_type = attr_type(*ctx.attrs, "out_type");
    const auto& strs = ctx.input(0).string_values();
    const int64_t size = static_cast<int64_t>(dtype_size(out_type));
    const int64_t str_size = strs.empty() ? 0 : static_cast<int64_t>(strs[0].size());
    for (size_t i = 1; i < strs.size(); ++i) {  // TF's text names element 0's size first
      if (static_cast<int64_t>(strs[i].size()) != str_size)
        ctx.fail("DecodeRaw requires input strings to all be the same size, but element " +
                 std::to_string(i) + " has size " + std::to_string(str_size) +
                 " != " + std::to_string(strs[i].size()));
    }
    if (str_size % size != 0)
      ctx.fail("Input to DecodeRaw has length " + std::to_string(str_size) +
               " that is not a multiple of " + std::to_string(size) + ", the size of " +
               std::string(dtype_tf_string(out_type)));
    write_raw(ctx, out_type, str_size);
  };
  return d;
}());

// tf.io.decode_raw with fixed_length: each string cut or zero-padded to that many bytes.
OpRegistration r_decode_padded_raw([] {
  OpDef d;
  d.name = "DecodePaddedRaw";
  d.inputs = {{"input_bytes", "", DType::kString}, {"fixed_length", "", DType::kInt32}};
  d.outputs = {{"output", "out_type"}};
  d.type_attrs = {{"out_type",  // TF's list has no complex or bool
                   {DType::kFloat32, DType::kFloat64, DType::kInt32, DType::kUInt8, DType::kInt16,
                    DType::kInt8, DType::kInt64}}};
  d.shape_fn = raw_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const DType out_type = attr_type(*ctx.attrs, "out_type");
    const int64_t size = static_cast<int64_t>(dtype_size(out_type));
    const int64_t width = ctx.input(1).data<int32_t>()[0];
    if (width % size != 0)
      ctx.fail("fixed_length (" + std::to_string(width) +
               ") must be a multiple of the size of out_type (" + std::to_string(size) + ")");
    if (width <= 0)
      ctx.fail("fixed_length (" + std::to_string(width) + ") must be greater than zero.");
    write_raw(ctx, out_type, width);
  };
  return d;
}());

// ---- Unicode ----

enum class Encoding { kUtf8, kUtf16Be, kUtf32Be };

Encoding encoding_of(OpKernelContext& ctx, const std::string& name, const char* what) {
  if (name == "UTF-8") return Encoding::kUtf8;
  if (name == "UTF-16-BE") return Encoding::kUtf16Be;
  if (name == "UTF-32-BE") return Encoding::kUtf32Be;
  ctx.fail(std::string("Could not create converter for ") + what + " encoding: " + name);
}

enum class Errors { kStrict, kReplace, kIgnore };

Errors errors_of(OpKernelContext& ctx) {
  const std::string e = attr_string_or(*ctx.attrs, "errors", "replace");
  if (e == "strict") return Errors::kStrict;
  if (e == "ignore") return Errors::kIgnore;
  if (e == "replace") return Errors::kReplace;
  ctx.fail("errors must be one of 'strict', 'replace', or 'ignore', got: " + e);
}

// The next code point of s at i (advanced past it), or -1 for one malformed sequence: its
// maximal subpart (the longest prefix of a well-formed sequence), at least one byte.
int32_t next_utf8(const std::string& s, size_t& i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b = byte(i++);
  if (b < 0x80) return b;
  int need = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the first continuation byte's range
  int32_t cp = 0;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1, cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2, cp = b & 0x0F;
    if (b == 0xE0) lo = 0xA0;  // no overlong forms
    if (b == 0xED) hi = 0x9F;  // no surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3, cp = b & 0x07;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return -1;
  }
  for (int k = 0; k < need; ++k, lo = 0x80, hi = 0xBF) {
    if (i >= s.size() || byte(i) < lo || byte(i) > hi) return -1;
    cp = (cp << 6) | (byte(i++) & 0x3F);
  }
  return cp;
}

int32_t next_utf16be(const std::string& s, size_t& i) {
  const auto unit = [&](size_t k) {
    return (static_cast<unsigned char>(s[k]) << 8) | static_cast<unsigned char>(s[k + 1]);
  };
  if (i + 2 > s.size()) {
    i = s.size();
    return -1;
  }
  const int32_t u = unit(i);
  i += 2;
  if (u < 0xD800 || u > 0xDFFF) return u;
  if (u >= 0xDC00 || i + 2 > s.size()) return -1;  // a lone trail, or a lead at the end
  const int32_t t = unit(i);
  if (t < 0xDC00 || t > 0xDFFF) return -1;
  i += 2;
  return 0x10000 + ((u - 0xD800) << 10) + (t - 0xDC00);
}

int32_t next_utf32be(const std::string& s, size_t& i) {
  if (i + 4 > s.size()) {
    i = s.size();
    return -1;
  }
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(s[i + k]);
  i += 4;
  if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return -1;
  return static_cast<int32_t>(v);
}

void append_utf8(std::string& out, int32_t cp) {
  const auto put = [&](int v) { out.push_back(static_cast<char>(v)); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6)), put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18)), put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
  }
}

void append_encoded(std::string& out, int32_t cp, Encoding enc) {
  const auto put = [&](int v) { out.push_back(static_cast<char>(v & 0xFF)); };
  switch (enc) {
    case Encoding::kUtf8:
      return append_utf8(out, cp);
    case Encoding::kUtf16Be:
      if (cp < 0x10000) return put(cp >> 8), put(cp);
      {
        const int32_t v = cp - 0x10000, lead = 0xD800 + (v >> 10), trail = 0xDC00 + (v & 0x3FF);
        put(lead >> 8), put(lead), put(trail >> 8), put(trail);
      }
      return;
    case Encoding::kUtf32Be:
      put(cp >> 24), put(cp >> 16), put(cp >> 8), put(cp);
      return;
  }
}

bool valid_code_point(int64_t cp) {
  return cp >= 0 && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

void write_splits(OpKernelContext& ctx, int index, const std::vector<int64_t>& splits) {
  const DType t = attr_type(*ctx.attrs, "Tsplits");
  Tensor& out = ctx.allocate_output(index, t, Shape({static_cast<int64_t>(splits.size())}));
  for (size_t i = 0; i < splits.size(); ++i) {
    if (t == DType::kInt32)
      out.data<int32_t>()[i] = static_cast<int32_t>(splits[i]);
    else
      out.data<int64_t>()[i] = splits[i];
  }
}

OpRegistration r_unicode_decode([] {
  OpDef d;
  d.name = "UnicodeDecode";
  d.inputs = {{"input", "", DType::kString}};
  d.outputs = {{"row_splits", "Tsplits"}, {"char_values", "", DType::kInt32}};
  d.type_attrs = {{"Tsplits", detail::kIndexTypes, DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    const int64_t n = in.has_rank() && in.num_elements() >= 0 ? in.num_elements() + 1 : -1;
    c.set_output(0, PartialShape({n}));
    c.set_output(1, PartialShape({-1}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const AttrMap& a = *ctx.attrs;
    const Encoding enc = encoding_of(ctx, attr_string_or(a, "input_encoding", ""), "input");
    const Errors errors = errors_of(ctx);
    const int64_t replacement = attr_int_or(a, "replacement_char", 0xFFFD);
    const bool replace_control = attr_bool_or(a, "replace_control_characters", false);
    std::vector<int64_t> splits{0};
    std::vector<int32_t> chars;
    for (const std::string& s : ctx.input(0).string_values()) {
      for (size_t i = 0; i < s.size();) {
        int32_t cp = enc == Encoding::kUtf8      ? next_utf8(s, i)
                     : enc == Encoding::kUtf16Be ? next_utf16be(s, i)
                                                 : next_utf32be(s, i);
        if (cp < 0) {
          if (errors == Errors::kStrict) ctx.fail("Invalid formatting on input string");
          if (errors == Errors::kIgnore) continue;
          cp = static_cast<int32_t>(replacement);
        } else if (replace_control && cp < 0x20) {
          cp = static_cast<int32_t>(replacement);
        }
        chars.push_back(cp);
      }
      splits.push_back(static_cast<int64_t>(chars.size()));
    }
    write_splits(ctx, 0, splits);
    Tensor& out =
        ctx.allocate_output(1, DType::kInt32, Shape({static_cast<int64_t>(chars.size())}));
    std::copy(chars.begin(), chars.end(), out.data<int32_t>());
  };
  return d;
}());

OpRegistration r_unicode_encode([] {
  OpDef d;
  d.name = "UnicodeEncode";
  d.inputs = {{"input_values", "", DType::kInt32}, {"input_splits", "Tsplits"}};
  d.outputs = {{"output", "", DType::kString}};
  d.type_attrs = {{"Tsplits", detail::kIndexTypes, DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& splits = c.in(1);
    const int64_t n = splits.has_rank() && splits.dims()[0] >= 0 ? splits.dims()[0] - 1 : -1;
    c.set_output(0, PartialShape({n}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const AttrMap& a = *ctx.attrs;
    const Encoding enc = encoding_of(ctx, attr_string_or(a, "output_encoding", ""), "output");
    const Errors errors = errors_of(ctx);
    const int64_t replacement = attr_int_or(a, "replacement_char", 0xFFFD);
    const Tensor &values = ctx.input(0), &splits_t = ctx.input(1);
    const int64_t nv = values.num_elements(), ns = splits_t.num_elements();
    auto split = [&](int64_t i) {
      return splits_t.dtype() == DType::kInt32 ? int64_t{splits_t.data<int32_t>()[i]}
                                               : splits_t.data<int64_t>()[i];
    };
    if (ns < 1) ctx.fail("Input splits must not be empty");
    for (int64_t i = 0; i < ns; ++i) {
      if (split(i) < 0 || split(i) > nv || (i > 0 && split(i) < split(i - 1)))
        ctx.fail("Invalid input splits: they must be non-decreasing and within the values");
    }
    std::vector<std::string> out(static_cast<size_t>(ns - 1));
    for (int64_t r = 0; r + 1 < ns; ++r) {
      for (int64_t k = split(r); k < split(r + 1); ++k) {
        int64_t cp = values.data<int32_t>()[k];
        if (!valid_code_point(cp)) {
          if (errors == Errors::kStrict)
            ctx.fail("Invalid code point in input values: " + std::to_string(cp));
          if (errors == Errors::kIgnore) continue;
          cp = replacement;
        }
        append_encoded(out[static_cast<size_t>(r)], static_cast<int32_t>(cp), enc);
      }
    }
    ctx.allocate_output(0, DType::kString, Shape({ns - 1})).mutable_string_values() =
        std::move(out);
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_string_unicode_ops() {}
}  // namespace detail
}  // namespace tfs
