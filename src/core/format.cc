// numpy's array printing (str and repr, numpy 2.x defaults: precision 8, linewidth 75,
// threshold 1000, edgeitems 3, floatmode 'maxprec') and TF's value summaries for tf.print.
#include "tfscope/format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "tfscope/complex.h"

namespace tfs {
namespace {

// Shortest decimal digits of v that read back as the same value at its precision.
// Returns digits (no dot, no leading zeros) and the decimal exponent e such that
// v = 0.d1d2d3... * 10^(e+1), i.e. d1 is at position 10^e.
struct Digits {
  bool negative = false;
  std::string digits;
  int exp10 = 0;
};

Digits shortest_digits(double v, bool is_float32) {
  Digits d;
  d.negative = std::signbit(v);
  double a = std::fabs(v);
  if (a == 0) {
    d.digits = "0";
    return d;
  }
  char buf[64];
  int max_p = is_float32 ? 9 : 17;
  for (int p = 1; p <= max_p; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, a);
    bool same = is_float32 ? (std::strtof(buf, nullptr) == static_cast<float>(a))
                           : (std::strtod(buf, nullptr) == a);
    if (same || p == max_p) break;
  }
  // buf = "d.ddddde+XX"
  std::string s(buf);
  size_t epos = s.find('e');
  std::string mant = s.substr(0, epos);
  d.exp10 = std::atoi(s.c_str() + epos + 1);
  for (char c : mant)
    if (c != '.') d.digits += c;
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// Round a digit string to keep `keep` digits (keep >= 0); may carry into a new leading digit.
void round_digits(Digits& d, int keep) {
  if (keep >= static_cast<int>(d.digits.size())) return;
  if (keep < 0) {
    d.digits = "0";
    d.exp10 = 0;
    return;
  }
  bool up = d.digits[static_cast<size_t>(keep)] >= '5';
  d.digits.resize(static_cast<size_t>(keep));
  if (up) {
    int i = keep - 1;
    while (i >= 0 && d.digits[static_cast<size_t>(i)] == '9') {
      d.digits[static_cast<size_t>(i)] = '0';
      --i;
    }
    if (i < 0) {
      d.digits.insert(d.digits.begin(), '1');
      d.exp10 += 1;
    } else {
      d.digits[static_cast<size_t>(i)]++;
    }
  }
  if (d.digits.empty()) {
    d.digits = "0";
    d.exp10 = 0;
  }
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
}

// Positional text split into integer and fraction parts (sign in the integer part).
void positional_parts(double v, bool f32, int max_frac, std::string* ip, std::string* fp) {
  Digits d = shortest_digits(v, f32);
  int frac_digits = static_cast<int>(d.digits.size()) - d.exp10 - 1;
  if (frac_digits > max_frac) round_digits(d, static_cast<int>(d.digits.size()) - (frac_digits - max_frac));
  std::string i, f;
  int n = static_cast<int>(d.digits.size());
  if (d.digits == "0") {
    i = "0";
  } else if (d.exp10 >= 0) {
    for (int k = 0; k <= d.exp10; ++k) i += k < n ? d.digits[static_cast<size_t>(k)] : '0';
    for (int k = d.exp10 + 1; k < n; ++k) f += d.digits[static_cast<size_t>(k)];
  } else {
    i = "0";
    f = std::string(static_cast<size_t>(-d.exp10 - 1), '0') + d.digits;
  }
  *ip = (d.negative ? "-" : "") + i;
  *fp = f;
}

// Scientific parts: mantissa integer digit, fraction digits, exponent value.
void scientific_parts(double v, bool f32, int max_frac, std::string* ip, std::string* fp,
                      int* exp10) {
  Digits d = shortest_digits(v, f32);
  if (static_cast<int>(d.digits.size()) - 1 > max_frac) round_digits(d, max_frac + 1);
  *ip = (d.negative ? "-" : "") + d.digits.substr(0, 1);
  *fp = d.digits.size() > 1 ? d.digits.substr(1) : "";
  *exp10 = d.digits == "0" ? 0 : d.exp10;
}

std::string exp_str(int e, int min_digits) {
  std::string s = std::to_string(std::abs(e));
  while (static_cast<int>(s.size()) < min_digits) s = "0" + s;
  return std::string(e < 0 ? "e-" : "e+") + s;
}

double element_as_double(const Tensor& t, int64_t i) {
  return visit_dtype(t.dtype(), [&](auto tag) -> double {
    using T = decltype(tag);
    return static_cast<double>(static_cast<const T*>(t.raw_data())[i]);
  });
}

// Which flat indices numpy would show (all, or the edge items of each summarised axis).
bool is_summarized(const Tensor& t) { return t.num_elements() > 1000; }

void collect_shown(const Shape& s, bool summarize, int axis, int64_t base,
                   std::vector<int64_t>* out) {
  if (axis == s.rank()) {
    out->push_back(base);
    return;
  }
  int64_t n = s.dim(axis);
  int64_t stride = 1;
  for (int k = axis + 1; k < s.rank(); ++k) stride *= s.dim(k);
  auto visit = [&](int64_t i) { collect_shown(s, summarize, axis + 1, base + i * stride, out); };
  if (summarize && n > 6) {
    for (int64_t i = 0; i < 3; ++i) visit(i);
    for (int64_t i = n - 3; i < n; ++i) visit(i);
  } else {
    for (int64_t i = 0; i < n; ++i) visit(i);
  }
}

// Element formatter built from all shown elements, as numpy's FloatingFormat / IntegerFormat.
std::function<std::string(int64_t)> make_formatter(const Tensor& t,
                                                   const std::vector<int64_t>& shown) {
  DType dt = t.dtype();
  if (dt == DType::kString) {
    return [&t](int64_t i) {
      const std::string& s = t.string_values()[static_cast<size_t>(i)];
      bool has_sq = s.find('\'') != std::string::npos, has_dq = s.find('"') != std::string::npos;
      char q = (has_sq && !has_dq) ? '"' : '\'';
      std::string r = "b";
      r += q;
      for (unsigned char c : s) {
        if (c == '\\') r += "\\\\";
        else if (c == static_cast<unsigned char>(q)) { r += '\\'; r += static_cast<char>(c); }
        else if (c == '\n') r += "\\n";
        else if (c == '\t') r += "\\t";
        else if (c == '\r') r += "\\r";
        else if (c < 32 || c >= 127) {
          char b[8];
          std::snprintf(b, sizeof b, "\\x%02x", c);
          r += b;
        } else {
          r += static_cast<char>(c);
        }
      }
      return r + q;
    };
  }
  if (dt == DType::kBool) {
    bool scalar = t.eager_shape().rank() == 0;
    return [&t, scalar](int64_t i) {
      bool b = t.data<bool>()[i];
      return b ? std::string(scalar ? "True" : " True") : std::string("False");
    };
  }
  if (is_integer(dt)) {
    size_t width = 0;
    for (int64_t i : shown) {
      width = std::max(width, std::to_string(static_cast<long long>(element_as_double(t, i))).size());
    }
    return [&t, width](int64_t i) {
      std::string s;
      if (t.dtype() == DType::kInt64) s = std::to_string(t.data<int64_t>()[i]);
      else s = std::to_string(static_cast<long long>(element_as_double(t, i)));
      return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
    };
  }
  // Floating point.
  bool f32 = dt == DType::kFloat32;
  std::vector<double> finite;
  bool has_nonfinite = false, has_neg_inf = false;
  for (int64_t i : shown) {
    double v = element_as_double(t, i);
    if (std::isfinite(v)) finite.push_back(v);
    else {
      has_nonfinite = true;
      if (std::isinf(v) && v < 0) has_neg_inf = true;
    }
  }
  bool exp_format = false;
  double max_v = 0, min_v = 0;
  bool any_nonzero = false;
  for (double v : finite) {
    double a = std::fabs(v);
    if (a == 0) continue;
    if (!any_nonzero) { max_v = min_v = a; any_nonzero = true; }
    max_v = std::max(max_v, a);
    min_v = std::min(min_v, a);
  }
  if (any_nonzero && (max_v >= 1e8 || min_v < 0.0001 || max_v / min_v > 1000.0)) exp_format = true;
  size_t pad_left = 0, pad_right = 0;
  int exp_size = 0;
  const int kPrecision = 8;
  if (exp_format) {
    for (double v : finite) {
      std::string ip, fp;
      int e;
      scientific_parts(v, f32, kPrecision, &ip, &fp, &e);
      pad_left = std::max(pad_left, ip.size());
      pad_right = std::max(pad_right, fp.size());
      exp_size = std::max(exp_size, static_cast<int>(std::to_string(std::abs(e)).size()));
    }
    exp_size = std::max(exp_size, 2);
  } else {
    for (double v : finite) {
      std::string ip, fp;
      positional_parts(v, f32, kPrecision, &ip, &fp);
      pad_left = std::max(pad_left, ip.size());
      pad_right = std::max(pad_right, fp.size());
    }
  }
  if (has_nonfinite) {
    size_t offset = pad_right + 1;
    size_t nan_need = 3 > offset ? 3 - offset : 0;
    size_t inf_need = 3 + (has_neg_inf ? 1 : 0) > offset ? 3 + (has_neg_inf ? 1 : 0) - offset : 0;
    pad_left = std::max({pad_left, nan_need, inf_need});
  }
  size_t total = exp_format ? pad_left + 1 + pad_right + 2 + static_cast<size_t>(exp_size)
                            : pad_left + 1 + pad_right;
  return [&t, f32, exp_format, pad_left, pad_right, exp_size, total](int64_t i) {
    double v = element_as_double(t, i);
    if (!std::isfinite(v)) {
      std::string r = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
      return std::string(total > r.size() ? total - r.size() : 0, ' ') + r;
    }
    std::string ip, fp;
    if (exp_format) {
      int e;
      scientific_parts(v, f32, 8, &ip, &fp, &e);
      if (fp.size() < pad_right) {
        // numpy (min_digits) pads the exponent form with the value's own further digits, not
        // zeros: -0.61519682f beside an element needing 7 fraction digits is -6.1519682e-01
        // although its shortest form is -6.151968e-01.
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*e", static_cast<int>(pad_right), std::fabs(v));
        const char* ep = std::strchr(buf, 'e');
        if (ep && std::atoi(ep + 1) == e && ep - buf == static_cast<long>(pad_right) + 2) {
          fp.assign(buf + 2, pad_right);
        } else {
          fp += std::string(pad_right - fp.size(), '0');
        }
      }
      return std::string(pad_left - ip.size(), ' ') + ip + "." + fp + exp_str(e, exp_size);
    }
    positional_parts(v, f32, 8, &ip, &fp);
    return std::string(pad_left - ip.size(), ' ') + ip + "." + fp +
           std::string(pad_right - fp.size(), ' ');
  };
}

void extend_line(std::string& s, std::string& line, const std::string& word, size_t width,
                 const std::string& next_prefix) {
  bool wrap = line.size() + word.size() > width;
  if (line.size() <= next_prefix.size()) wrap = false;
  if (wrap) {
    size_t end = line.find_last_not_of(' ');
    s += line.substr(0, end == std::string::npos ? 0 : end + 1) + "\n";
    line = next_prefix;
  }
  line += word;
}

std::string format_array(const Tensor& t, const std::string& sep, const std::string& prefix,
                         size_t line_width) {
  const Shape& shape = t.eager_shape();
  bool summarize = is_summarized(t);
  std::vector<int64_t> shown;
  collect_shown(shape, summarize, 0, 0, &shown);
  auto fmt = make_formatter(t, shown);
  if (shape.rank() == 0) return fmt(0);

  std::vector<int64_t> strides(static_cast<size_t>(shape.rank()), 1);
  for (int k = shape.rank() - 2; k >= 0; --k)
    strides[static_cast<size_t>(k)] = strides[static_cast<size_t>(k) + 1] * shape.dim(k + 1);

  std::string trimmed_sep = sep.substr(0, sep.find_last_not_of(' ') + 1);
  std::function<std::string(int, int64_t, const std::string&, size_t)> rec =
      [&](int axis, int64_t base, const std::string& hang, size_t width) -> std::string {
    int axes_left = shape.rank() - axis;
    std::string next_hang = hang + " ";
    size_t next_width = width - 1;
    int64_t n = shape.dim(axis);
    bool show_summary = summarize && n > 6;
    int64_t leading = show_summary ? 3 : 0, trailing = show_summary ? 3 : n;
    int64_t stride = strides[static_cast<size_t>(axis)];
    auto child = [&](int64_t i) {
      int64_t idx = i < 0 ? n + i : i;
      if (axes_left == 1) return fmt(base + idx * stride);
      return rec(axis + 1, base + idx * stride, next_hang, next_width);
    };
    std::string s;
    if (axes_left == 1) {
      size_t elem_width = width - std::max(trimmed_sep.size(), size_t{1});
      std::string line = hang;
      for (int64_t i = 0; i < leading; ++i) {
        extend_line(s, line, child(i), elem_width, hang);
        line += sep;
      }
      if (show_summary) {
        extend_line(s, line, "...", elem_width, hang);
        line += sep;
      }
      for (int64_t i = trailing; i > 1; --i) {
        extend_line(s, line, child(-i), elem_width, hang);
        line += sep;
      }
      if (n > 0) extend_line(s, line, child(-1), elem_width, hang);
      s += line;
    } else {
      std::string line_sep = trimmed_sep + std::string(static_cast<size_t>(axes_left - 1), '\n');
      for (int64_t i = 0; i < leading; ++i) s += hang + child(i) + line_sep;
      if (show_summary) s += hang + "..." + line_sep;
      for (int64_t i = trailing; i > 1; --i) s += hang + child(-i) + line_sep;
      if (n > 0) s += hang + child(-1);
    }
    return "[" + s.substr(std::min(s.size(), hang.size())) + "]";
  };
  return rec(0, 0, std::string(" ") + std::string(prefix.size(), ' '), line_width);
}

std::string scalar_str(const Tensor& t) {
  DType dt = t.dtype();
  if (dt == DType::kString) {
    std::vector<int64_t> shown{0};
    return make_formatter(t, shown)(0);
  }
  if (dt == DType::kBool) return t.data<bool>()[0] ? "True" : "False";
  if (is_integer(dt)) {
    if (dt == DType::kInt64) return std::to_string(t.data<int64_t>()[0]);
    return std::to_string(static_cast<long long>(element_as_double(t, 0)));
  }
  double v = element_as_double(t, 0);
  if (dt == DType::kFloat32) {
    // numpy's float32 scalar str: shortest float32 digits in Python's repr layout.
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    Digits d = shortest_digits(v, true);
    if (d.digits != "0" && (d.exp10 < -4 || d.exp10 >= 16)) {
      std::string m = d.digits.substr(0, 1);
      if (d.digits.size() > 1) m += "." + d.digits.substr(1);
      return (d.negative ? "-" : "") + m + exp_str(d.exp10, 2);
    }
    std::string ip, fp;
    positional_parts(v, true, 100, &ip, &fp);
    return ip + "." + (fp.empty() ? "0" : fp);
  }
  return python_float_repr(v);
}

bool dtype_implied(DType dt) {
  return dt == DType::kFloat64 || dt == DType::kInt64 || dt == DType::kBool;
}

std::string tf_scalar(const Tensor& t, int64_t i) {
  DType dt = t.dtype();
  if (is_complex(dt)) return "?";  // TF's SummarizeValue prints complex elements as "?"
  if (dt == DType::kString) return "\"" + t.string_values()[static_cast<size_t>(i)] + "\"";
  if (dt == DType::kBool) return t.data<bool>()[i] ? "1" : "0";
  if (dt == DType::kInt64) return std::to_string(t.data<int64_t>()[i]);
  if (is_integer(dt)) return std::to_string(static_cast<long long>(element_as_double(t, i)));
  double v = element_as_double(t, i);
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  // TF's FloatToBuffer / DoubleToBuffer: %g at the type's digits, more if it does not round-trip.
  char buf[64];
  if (dt == DType::kFloat32) {
    float f = static_cast<float>(v);
    std::snprintf(buf, sizeof buf, "%.*g", 6, static_cast<double>(f));
    if (std::strtof(buf, nullptr) != f) std::snprintf(buf, sizeof buf, "%.*g", 9, static_cast<double>(f));
  } else {
    std::snprintf(buf, sizeof buf, "%.*g", 15, v);
    if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.*g", 17, v);
  }
  return buf;
}

void tf_summarize_rec(const Tensor& t, int dim, int64_t base, int summarize, std::string* out,
                      const std::vector<int64_t>& strides) {
  const Shape& s = t.eager_shape();
  int64_t n = s.dim(dim);
  int64_t stride = strides[static_cast<size_t>(dim)];
  bool cut = summarize >= 0 && n > 2 * static_cast<int64_t>(summarize);
  *out += "[";
  bool first = true;
  // Between sub-blocks: one newline per dimension below this one (a blank line between the
  // matrices of a 3-D tensor), then the indentation.
  const std::string block_sep =
      std::string(static_cast<size_t>(std::max(1, s.rank() - dim - 1)), '\n') +
      std::string(static_cast<size_t>(dim + 1), ' ');
  auto emit = [&](int64_t i) {
    if (!first) *out += dim + 1 == s.rank() ? " " : block_sep;
    first = false;
    if (dim + 1 == s.rank()) *out += tf_scalar(t, base + i * stride);
    else tf_summarize_rec(t, dim + 1, base + i * stride, summarize, out, strides);
  };
  if (cut) {
    for (int64_t i = 0; i < summarize; ++i) emit(i);
    *out += dim + 1 == s.rank() ? " ..." : block_sep + "...";
    for (int64_t i = n - summarize; i < n; ++i) emit(i);
  } else {
    for (int64_t i = 0; i < n; ++i) emit(i);
  }
  *out += "]";
}

}  // namespace

// A complex element as Python prints a complex number: "(1+2j)", "-3j". The Python package
// prints complex tensors through numpy; this is for the engine's own texts (error messages).
std::string complex_element(const Tensor& t, int64_t i) {
  return visit_complex(t.dtype(), [&](auto tag) {
    using C = decltype(tag);
    const C z = static_cast<const C*>(t.raw_data())[i];
    auto part = [](double v) {
      std::string r = python_float_repr(v);
      return r.size() > 2 && r.compare(r.size() - 2, 2, ".0") == 0 ? r.substr(0, r.size() - 2) : r;
    };
    std::string im = part(static_cast<double>(z.imag())) + "j";
    if (z.real() == 0 && !std::signbit(z.real())) return im;
    if (im[0] != '-') im = "+" + im;
    return "(" + part(static_cast<double>(z.real())) + im + ")";
  });
}

std::string complex_text(const Tensor& t) {
  if (t.eager_shape().rank() == 0) return complex_element(t, 0);
  std::string s = "[";
  for (int64_t i = 0; i < t.num_elements(); ++i) s += (i ? ", " : "") + complex_element(t, i);
  return s + "]";
}

std::string format_numpy_str(const Tensor& t) {
  if (is_complex(t.dtype())) return complex_text(t);
  if (t.eager_shape().rank() == 0) return scalar_str(t);
  if (t.num_elements() == 0) return "[]";  // numpy prints any empty array so, whatever its shape
  return format_array(t, " ", "", 75);
}

std::string format_numpy_repr(const Tensor& t) {
  if (is_complex(t.dtype())) return complex_text(t);
  if (t.eager_shape().rank() == 0) return scalar_str(t);
  const std::string prefix = "array(";
  std::string body = t.num_elements() == 0 ? "[]" : format_array(t, ", ", prefix, 75 - 1);
  std::vector<std::string> extras;
  // numpy >= 2.2 also names the shape of a summarized array (more than 1000 elements).
  if ((t.num_elements() == 0 && t.eager_shape().rank() != 1) || t.num_elements() > 1000)
    extras.push_back("shape=" + t.eager_shape().str());
  if (!dtype_implied(t.dtype()) || t.num_elements() == 0) {
    std::string n(dtype_name(t.dtype()));
    if (t.dtype() == DType::kString) {
      size_t w = 0;
      for (auto& s : t.string_values()) w = std::max(w, s.size());
      n = "'|S" + std::to_string(w) + "'";
      if (t.dtype() == DType::kString) n = "object";
    }
    extras.push_back("dtype=" + n);
  }
  if (extras.empty()) return prefix + body + ")";
  std::string extra = extras[0];
  for (size_t i = 1; i < extras.size(); ++i) extra += ", " + extras[i];
  extra += ")";
  std::string arr = prefix + body + ",";
  size_t last_nl = arr.rfind('\n');
  size_t last_len = last_nl == std::string::npos ? arr.size() : arr.size() - last_nl - 1;
  std::string spacer = last_len + extra.size() + 1 > 75 ? "\n" + std::string(prefix.size(), ' ') : " ";
  return arr + spacer + extra;
}

std::string format_tf_summarize(const Tensor& t, int summarize) {
  const Shape& s = t.eager_shape();
  if (s.rank() == 0) return tf_scalar(t, 0);
  std::vector<int64_t> strides(static_cast<size_t>(s.rank()), 1);
  for (int k = s.rank() - 2; k >= 0; --k)
    strides[static_cast<size_t>(k)] = strides[static_cast<size_t>(k) + 1] * s.dim(k + 1);
  std::string out;
  if (t.num_elements() == 0) {
    return std::string(static_cast<size_t>(s.rank()), '[') + std::string(static_cast<size_t>(s.rank()), ']');
  }
  tf_summarize_rec(t, 0, 0, summarize, &out, strides);
  return out;
}

std::string python_float_repr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  Digits dg = shortest_digits(d, false);
  if (dg.digits != "0" && (dg.exp10 < -4 || dg.exp10 >= 16)) {
    std::string m = dg.digits.substr(0, 1);
    if (dg.digits.size() > 1) m += "." + dg.digits.substr(1);
    return (dg.negative ? "-" : "") + m + exp_str(dg.exp10, 2);
  }
  std::string ip, fp;
  positional_parts(d, false, 100, &ip, &fp);
  return ip + "." + (fp.empty() ? "0" : fp);
}

std::string shortest_float_str(double v, bool is_float32) {
  char buf[64];
  int max_p = is_float32 ? 9 : 17;
  for (int p = 1; p <= max_p; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    bool same = is_float32 ? std::strtof(buf, nullptr) == static_cast<float>(v)
                           : std::strtod(buf, nullptr) == v;
    if (same) break;
  }
  return buf;
}

}  // namespace tfs
