// Source printer with the output rules of Python 3.11's `ast.unparse`, which TF uses to print
// converted code: precedence-aware parentheses, repr() literals, 4-space indentation, and a blank
// line before every def/class that is not the first line.
#pragma once

#include <string>

#include "ast.h"
#include "literals.h"

namespace tfs::autograph::detail {

std::string unparse(const P& node);       // a statement (with its block) or an expression
std::string unparse(const Block& stmts);  // statements, one after another

}  // namespace tfs::autograph::detail
