#include "tokenizer.h"

#include <cctype>
#include <cstring>

#include "tfscope/autograph.h"

namespace tfs::autograph::detail {
namespace {

[[noreturn]] void fail(int line, const std::string& what) {
  throw ConversionError("[autograph] syntax error at line " + std::to_string(line) + ": " + what);
}

bool ident_start(unsigned char c) {
  return std::isalpha(c) || c == '_' || c >= 0x80;
}
bool ident_char(unsigned char c) {
  return std::isalnum(c) || c == '_' || c >= 0x80;
}

// Longest operators first.
const char* const kOps[] = {"**=", "//=", ">>=", "<<=", "...", "!=", "%=", "&=", "**", "*=",
                            "+=",  "-=",  "->",  "//",  "/=",  ":=", "<<", "<=", "==", ">=",
                            ">>",  "@=",  "^=",  "|=",  "!",   "%",  "&",  "(",  ")",  "*",
                            "+",   ",",   "-",   ".",   "/",   ":",  ";",  "<",  "=",  ">",
                            "@",   "[",   "]",   "^",   "{",   "|",  "}",  "~"};

// CPython 3.11's tokenizer limits (Parser/tokenizer.h): MAXLEVEL open brackets, MAXINDENT
// indentation levels (the first, column 0, included).
constexpr int kMaxLevel = 200;
constexpr int kMaxIndent = 100;

class Lexer {
 public:
  explicit Lexer(std::string_view src) : s_(src) {}

  std::vector<Token> run() {
    indents_.push_back(0);
    alt_indents_.push_back(0);
    bool at_line_start = true;
    while (pos_ < s_.size()) {
      if (at_line_start && depth_ == 0) {
        if (!handle_indent()) continue;  // blank or comment line
        at_line_start = false;
      }
      char c = s_[pos_];
      if (c == '\n') {
        if (depth_ == 0) {
          emit(Tok::Newline, "\n");
          at_line_start = true;
        }
        ++pos_;
        ++line_;
        line_start_ = pos_;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        ++pos_;
        continue;
      }
      if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '\n' || s_[pos_ + 1] == '\r')) {
        pos_ += s_[pos_ + 1] == '\r' ? 3 : 2;
        ++line_;
        line_start_ = pos_;
        continue;
      }
      if (ident_start(c)) {
        size_t start = pos_;
        while (pos_ < s_.size() && ident_char(s_[pos_])) ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"') && is_prefix(start)) {
          lex_string(start);
        } else {
          emit_at(Tok::Name, std::string(s_.substr(start, pos_ - start)), start);
        }
        continue;
      }
      if (c == '\'' || c == '"') {
        lex_string(pos_);
        continue;
      }
      if (std::isdigit(static_cast<unsigned char>(c)) ||
          (c == '.' && pos_ + 1 < s_.size() &&
           std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
        lex_number();
        continue;
      }
      lex_op();
    }
    if (!tokens_.empty() && tokens_.back().type != Tok::Newline &&
        tokens_.back().type != Tok::Dedent)
      emit(Tok::Newline, "\n");
    while (indents_.size() > 1) {
      indents_.pop_back();
      alt_indents_.pop_back();
      emit(Tok::Dedent, "");
    }
    emit(Tok::End, "");
    return std::move(tokens_);
  }

 private:
  // Measures indentation at a line start. Returns false for blank/comment-only lines.
  // CPython measures each indentation twice, with tabs to 8 columns and to 1: the two must order
  // lines the same way, else the mix of tabs and spaces is ambiguous (TabError).
  bool handle_indent() {
    int col = 0, alt = 0;
    size_t p = pos_;
    while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == '\f')) {
      if (s_[p] == ' ') {
        ++col, ++alt;
      } else if (s_[p] == '\t') {
        col = (col / 8 + 1) * 8;
        ++alt;
      } else {
        col = alt = 0;  // a form feed starts the count again
      }
      ++p;
    }
    if (p >= s_.size() || s_[p] == '\n' || s_[p] == '#' || s_[p] == '\r') {
      while (p < s_.size() && s_[p] != '\n') ++p;
      if (p < s_.size()) ++p;
      pos_ = p;
      ++line_;
      line_start_ = pos_;
      return false;
    }
    pos_ = p;
    constexpr const char* kTabs = "inconsistent use of tabs and spaces in indentation";
    if (col == indents_.back()) {
      if (alt != alt_indents_.back()) python_error("TabError", line_, kTabs);
    } else if (col > indents_.back()) {
      if (static_cast<int>(indents_.size()) >= kMaxIndent)
        python_error("IndentationError", line_, "too many levels of indentation");
      if (alt <= alt_indents_.back()) python_error("TabError", line_, kTabs);
      indents_.push_back(col);
      alt_indents_.push_back(alt);
      emit(Tok::Indent, "");
    } else {
      while (indents_.size() > 1 && col < indents_.back()) {
        indents_.pop_back();
        alt_indents_.pop_back();
        emit(Tok::Dedent, "");
      }
      if (col != indents_.back())
        python_error("IndentationError", line_,
                     "unindent does not match any outer indentation level");
      if (alt != alt_indents_.back()) python_error("TabError", line_, kTabs);
    }
    return true;
  }

  bool is_prefix(size_t start) const {
    std::string p;
    for (size_t i = start; i < pos_; ++i) p += static_cast<char>(std::tolower(s_[i]));
    return p == "r" || p == "u" || p == "b" || p == "f" || p == "br" || p == "rb" || p == "fr" ||
           p == "rf";
  }

  void lex_string(size_t start) {
    char q = s_[pos_];
    bool triple = pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q;
    int start_line = line_;
    pos_ += triple ? 3 : 1;
    while (true) {
      if (pos_ >= s_.size()) fail(start_line, "unterminated string literal");
      char c = s_[pos_];
      if (c == '\\') {
        if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') ++line_;
        pos_ += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple) fail(start_line, "unterminated string literal");
        ++line_;
      }
      if (c == q) {
        if (!triple) {
          ++pos_;
          break;
        }
        if (pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q) {
          pos_ += 3;
          break;
        }
      }
      ++pos_;
    }
    Token t{Tok::String, std::string(s_.substr(start, pos_ - start)), start_line,
            static_cast<int>(start - line_start_)};
    tokens_.push_back(std::move(t));
  }

  void lex_number() {
    size_t start = pos_;
    auto digits = [&](auto pred) {
      while (pos_ < s_.size() && (pred(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
    };
    auto is_dec = [](unsigned char c) { return std::isdigit(c) != 0; };
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && std::strchr("xXoObB", s_[pos_ + 1])) {
      pos_ += 2;
      digits([](unsigned char c) { return std::isxdigit(c) != 0; });
    } else {
      digits(is_dec);
      if (pos_ < s_.size() && s_[pos_] == '.') {
        ++pos_;
        digits(is_dec);
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        size_t save = pos_++;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
        if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_])))
          digits(is_dec);
        else
          pos_ = save;
      }
      if (pos_ < s_.size() && (s_[pos_] == 'j' || s_[pos_] == 'J')) ++pos_;
    }
    emit_at(Tok::Number, std::string(s_.substr(start, pos_ - start)), start);
  }

  void lex_op() {
    for (const char* op : kOps) {
      size_t n = std::char_traits<char>::length(op);
      if (s_.compare(pos_, n, op) == 0) {
        if (n == 1 && std::strchr("([{", op[0])) {
          if (depth_ >= kMaxLevel) python_error("SyntaxError", line_, "too many nested parentheses");
          ++depth_;
        }
        if (n == 1 && std::strchr(")]}", op[0]) && depth_ > 0) --depth_;
        emit_at(Tok::Op, op, pos_);
        pos_ += n;
        return;
      }
    }
    fail(line_, std::string("invalid character '") + s_[pos_] + "'");
  }

  void emit(Tok t, std::string text) {
    tokens_.push_back(Token{t, std::move(text), line_, static_cast<int>(pos_ - line_start_)});
  }
  void emit_at(Tok t, std::string text, size_t at) {
    tokens_.push_back(Token{t, std::move(text), line_, static_cast<int>(at - line_start_)});
  }

  std::string_view s_;
  size_t pos_ = 0;
  size_t line_start_ = 0;
  int line_ = 1;
  int depth_ = 0;
  std::vector<int> indents_;
  std::vector<int> alt_indents_;
  std::vector<Token> tokens_;
};

}  // namespace

void python_error(const char* type, int line, const std::string& what) {
  throw ConversionError(what + " (" + kSourceName + ", line " + std::to_string(line) + ")", type);
}

std::vector<Token> tokenize(std::string_view src) {
  return Lexer(src).run();
}

}  // namespace tfs::autograph::detail
