#include "literals.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <utility>

namespace tfs::autograph::detail {

// Decodes one UTF-8 code point starting at s[i]; advances i.
unsigned long next_cp(const std::string& s, size_t& i) {
  unsigned char c = s[i];
  int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  unsigned long cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
  for (int k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
  i += n;
  return cp;
}

// str.isprintable(), from CPython's Unicode database.
bool printable(unsigned long cp) {
  static const std::pair<unsigned long, unsigned long> kNonPrintable[] = {
#include "nonprintable_ranges.inc"
  };
  auto it = std::upper_bound(std::begin(kNonPrintable), std::end(kNonPrintable), cp,
                             [](unsigned long v, const auto& r) { return v < r.first; });
  if (it == std::begin(kNonPrintable)) return true;
  --it;
  return cp > it->second;
}

std::string hex_escape(unsigned long cp) {
  char buf[16];
  if (cp < 0x100)
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
  else if (cp < 0x10000)
    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
  else
    std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(cp));
  return buf;
}

std::string bytes_repr(const std::string& v) {
  bool has_sq = v.find('\'') != std::string::npos, has_dq = v.find('"') != std::string::npos;
  char q = has_sq && !has_dq ? '"' : '\'';
  std::string out = "b";
  out += q;
  for (unsigned char c : v) {
    if (c == q || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c >= 0x7F)
      out += hex_escape(c);
    else
      out += static_cast<char>(c);
  }
  out += q;
  return out;
}

std::string float_repr(const std::string& literal) {
  double v = std::strtod(literal.c_str(), nullptr);
  if (v > 1.7976931348623157e308) return "1e309";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  size_t e = sci.find('e');
  std::string mant = sci.substr(0, e);
  int exp = std::atoi(sci.c_str() + e + 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  if (exp >= -5 + 1 && exp < 16) {  // repr uses fixed notation for -4 <= exp < 16
    std::string out;
    if (exp >= 0) {
      std::string ip = digits.substr(0, std::min<size_t>(digits.size(), exp + 1));
      while (static_cast<int>(ip.size()) < exp + 1) ip += '0';
      std::string fp = digits.size() > static_cast<size_t>(exp + 1) ? digits.substr(exp + 1) : "0";
      out = ip + "." + fp;
    } else {
      out = "0." + std::string(-exp - 1, '0') + digits;
    }
    return out;
  }
  std::string out = digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char eb[16];
  std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return out + eb;
}

std::string int_repr(const std::string& literal) {
  if (literal.size() > 1 && literal[0] == '0' &&
      std::isalpha(static_cast<unsigned char>(literal[1]))) {
    int base = std::tolower(literal[1]) == 'x' ? 16 : std::tolower(literal[1]) == 'o' ? 8 : 2;
    return std::to_string(std::stoull(literal.substr(2), nullptr, base));
  }
  size_t nz = literal.find_first_not_of('0');
  return nz == std::string::npos ? "0" : literal.substr(nz);
}

std::string python_str_repr(const std::string& v) {
  bool has_sq = v.find('\'') != std::string::npos, has_dq = v.find('"') != std::string::npos;
  char q = has_sq && !has_dq ? '"' : '\'';
  std::string out(1, q);
  for (size_t i = 0; i < v.size();) {
    size_t start = i;
    unsigned long cp = next_cp(v, i);
    if (cp == static_cast<unsigned long>(q) || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp == '\n')
      out += "\\n";
    else if (cp == '\r')
      out += "\\r";
    else if (cp == '\t')
      out += "\\t";
    else if (!printable(cp))
      out += hex_escape(cp);
    else
      out += v.substr(start, i - start);
  }
  out += q;
  return out;
}

}  // namespace tfs::autograph::detail
