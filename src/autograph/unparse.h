// Source printer with the output rules of Python 3.11's `ast.unparse`, which TF uses to print
// converted code: precedence-aware parentheses, repr() literals, 4-space indentation, and a blank
// line before every def/class that is not the first line.
#pragma once

#include <string>
#include <vector>

#include "ast.h"
#include "literals.h"

namespace tfs::autograph::detail {

std::string unparse(const P& node);       // a statement (with its block) or an expression
std::string unparse(const Block& stmts);  // statements, one after another
// A statement, and for each output line the source line it comes from (0: none).
std::string unparse(const P& stmt, std::vector<int>* line_origins);

}  // namespace tfs::autograph::detail
