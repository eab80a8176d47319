// Recursive-descent parser for Python 3.11 statements and expressions into `ast.h` nodes.
#pragma once

#include <string>
#include <string_view>

#include "ast.h"

namespace tfs::autograph::detail {

struct ParsedModule {
  Block body;
  // For each top-level statement (same index as body): first line (decorators included) and
  // last line of its source text, 1-based.
  std::vector<std::pair<int, int>> spans;
};

// Throws ConversionError("[autograph] syntax error at line N: ...").
ParsedModule parse_module(std::string_view src);
P parse_expression(std::string_view src);

}  // namespace tfs::autograph::detail
