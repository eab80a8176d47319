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

// Throws ConversionError("[autograph] syntax error at line N: ...") on malformed input.
std::vector<Token> tokenize(std::string_view src);

}  // namespace tfs::autograph::detail
