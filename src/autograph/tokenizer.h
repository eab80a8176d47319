// Python 3.11 tokenizer: NAME, NUMBER, STRING (prefix and quotes kept), OP, NEWLINE, INDENT,
// DEDENT and END tokens, with implicit line joining inside brackets and backslash continuation.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tfs::autograph::detail {

enum class Tok { Name, Number, String, Op, Newline, Indent, Dedent, End };

struct Token {
  Tok type;
  std::string text;
  int line = 0;
  int col = 0;
};

// Throws ConversionError("[autograph] syntax error at line N: ...") on malformed input, and
// CPython 3.11's own errors where its tokenizer has a limit or a rule: python_error() below.
std::vector<Token> tokenize(std::string_view src);

// Where the message of a Python error names its file: convert_file/convert_source put the
// file's name there ("too many nested parentheses (f.py, line 2)").
inline constexpr const char* kSourceName = "<source>";

// Throws ConversionError("<what> (<source>, line N)", type): CPython's text for the same input,
// with its exception class (SyntaxError, IndentationError, TabError).
[[noreturn]] void python_error(const char* type, int line, const std::string& what);

}  // namespace tfs::autograph::detail
