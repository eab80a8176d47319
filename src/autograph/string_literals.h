// Python string literals: prefixes, escape decoding, and f-string bodies.
#pragma once

#include <string>
#include <string_view>

#include "ast.h"

namespace tfs::autograph::detail {

struct StrParts {
  std::string prefix;  // lower-case, e.g. "rb"
  std::string body;    // between the quotes
};
StrParts split_literal(const std::string& token);
std::string decode_escapes(std::string_view body, bool bytes);
// Decodes a whole literal token (prefix and quotes included).
std::string decode_string_literal(const std::string& token, bool* is_bytes, bool* is_fstring);
// Appends literal text to a JoinedStr, merging with a preceding literal part.
void add_fstring_literal(const P& js, const std::string& text);
// Parses the inside of an f-string (between the quotes) into js->v1.
void parse_fstring_body(const P& js, const std::string& body, bool raw, int line);

}  // namespace tfs::autograph::detail
