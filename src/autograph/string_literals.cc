#include "string_literals.h"

#include <cctype>
#include <cstring>

#include "parser.h"
#include "tfscope/autograph.h"

namespace tfs::autograph::detail {
namespace {

[[noreturn]] void fail(int line, const std::string& what) {
  throw ConversionError("[autograph] syntax error at line " + std::to_string(line) + ": " + what);
}

void append_utf8(std::string& out, unsigned long cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

std::string decode_escapes(std::string_view body, bool bytes) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case '\n':
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        if (bytes && e != 'x') {
          out += '\\';
          out += e;
          break;
        }
        int n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        unsigned long cp = std::stoul(std::string(body.substr(i + 1, n)), nullptr, 16);
        i += n;
        if (bytes)
          out += static_cast<char>(cp);
        else
          append_utf8(out, cp);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          unsigned long cp = 0;
          int n = 0;
          while (n < 3 && i < body.size() && body[i] >= '0' && body[i] <= '7') {
            cp = cp * 8 + (body[i] - '0');
            ++i;
            ++n;
          }
          --i;
          if (bytes)
            out += static_cast<char>(cp);
          else
            append_utf8(out, cp);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

StrParts split_literal(const std::string& tok) {
  size_t q = tok.find_first_of("'\"");
  StrParts p;
  for (size_t i = 0; i < q; ++i) p.prefix += static_cast<char>(std::tolower(tok[i]));
  size_t qlen = tok.size() - q >= 6 && tok[q + 1] == tok[q] && tok[q + 2] == tok[q] ? 3 : 1;
  p.body = tok.substr(q + qlen, tok.size() - q - 2 * qlen);
  return p;
}

void add_fstring_literal(const P& js, const std::string& text) {
  if (text.empty()) return;
  if (!js->v1.empty() && js->v1.back()->kind == K::Constant) {
    js->v1.back()->s += text;
    return;
  }
  js->v1.push_back(str_const(text));
}

// Parses the inside of an f-string (between the quotes) into js->v1.
void parse_fstring_body(const P& js, const std::string& body, bool raw, int line) {
  std::string lit;
  size_t i = 0;
  auto flush = [&] {
    add_fstring_literal(js, raw ? lit : decode_escapes(lit, false));
    lit.clear();
  };
  while (i < body.size()) {
    char c = body[i];
    if (c == '{' && i + 1 < body.size() && body[i + 1] == '{') {
      lit += '{';
      i += 2;
      continue;
    }
    if (c == '}' && i + 1 < body.size() && body[i + 1] == '}') {
      lit += '}';
      i += 2;
      continue;
    }
    if (c != '{') {
      lit += c;
      ++i;
      continue;
    }
    flush();
    // Find the end of the expression part.
    size_t j = i + 1;
    int depth = 0;
    char quote = 0;
    size_t expr_end = std::string::npos;
    for (; j < body.size(); ++j) {
      char d = body[j];
      if (quote) {
        if (d == quote) quote = 0;
        continue;
      }
      if (d == '\'' || d == '"')
        quote = d;
      else if (d == '(' || d == '[' || d == '{')
        ++depth;
      else if ((d == ')' || d == ']' || d == '}') && depth > 0)
        --depth;
      else if (depth == 0 && (d == '}' || d == ':' || (d == '!' && body[j + 1] != '='))) {
        expr_end = j;
        break;
      }
    }
    if (expr_end == std::string::npos) fail(line, "f-string: expecting '}'");
    std::string expr_text = body.substr(i + 1, expr_end - i - 1);
    P fv = std::make_shared<Node>(K::FormattedValue);
    fv->line = line;
    fv->flag = -1;
    std::string trimmed = expr_text;
    while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back())))
      trimmed.pop_back();
    bool self_doc =
        !trimmed.empty() && trimmed.back() == '=' &&
        (trimmed.size() < 2 || std::strchr("=!<>", trimmed[trimmed.size() - 2]) == nullptr);
    if (self_doc) {
      add_fstring_literal(js, expr_text);
      trimmed.pop_back();
      fv->flag = 'r';
    }
    fv->a = parse_expression("(" + trimmed + ")");
    j = expr_end;
    if (body[j] == '!') {
      fv->flag = body[j + 1];
      j += 2;
    }
    if (body[j] == ':') {
      size_t k = j + 1;
      int d = 0;
      for (; k < body.size(); ++k) {
        if (body[k] == '{')
          ++d;
        else if (body[k] == '}') {
          if (d == 0) break;
          --d;
        }
      }
      P spec = std::make_shared<Node>(K::JoinedStr);
      parse_fstring_body(spec, body.substr(j + 1, k - j - 1), raw, line);
      fv->b = spec;
      if (self_doc && fv->flag == 'r') fv->flag = -1;
      j = k;
    }
    if (j >= body.size() || body[j] != '}') fail(line, "f-string: expecting '}'");
    js->v1.push_back(fv);
    i = j + 1;
  }
  flush();
}

std::string decode_string_literal(const std::string& token, bool* is_bytes, bool* is_fstring) {
  StrParts sp = split_literal(token);
  *is_bytes = sp.prefix.find('b') != std::string::npos;
  *is_fstring = sp.prefix.find('f') != std::string::npos;
  if (sp.prefix.find('r') != std::string::npos) return sp.body;
  return decode_escapes(sp.body, *is_bytes);
}

}  // namespace tfs::autograph::detail
