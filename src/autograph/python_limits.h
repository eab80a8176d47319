// Nesting that Python 3.11 or TF 2.21's converter refuses, with their errors. The tokenizer and
// the parser enforce CPython's tokenizer and parser limits as they go (too many nested
// parentheses, too many levels of indentation, MemoryError past the parser's stack); these
// check the parsed tree.
#pragma once

#include "ast.h"

namespace tfs::autograph::detail {

// What CPython's compiler refuses in a module: a tree nested deeper than its recursion limit
// (RecursionError "maximum recursion depth exceeded during compilation") and more than 20
// loops, try and with statements nested in one function (SyntaxError "too many statically
// nested blocks").
void check_python_limits(const Block& module);

// What TF's converter cannot transform without exceeding Python's recursion limit: RecursionError
// "maximum recursion depth exceeded", as tf.autograph.to_code raises it.
void check_converter_depth(const P& fn);

}  // namespace tfs::autograph::detail
