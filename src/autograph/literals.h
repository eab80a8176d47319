// How Python's repr() and ast.unparse spell literals: strings, bytes, ints, floats.
#pragma once

#include <string>

namespace tfs::autograph::detail {

std::string python_str_repr(const std::string& value);   // repr(str)
std::string bytes_repr(const std::string& value);        // repr(bytes)
std::string float_repr(const std::string& literal);      // repr(float(literal)); inf -> 1e309
std::string int_repr(const std::string& literal);        // decimal text of an int literal
unsigned long next_cp(const std::string& s, size_t& i);  // decodes one UTF-8 code point
bool printable(unsigned long cp);                        // str.isprintable()
std::string hex_escape(unsigned long cp);                // \xNN, \uNNNN or \UNNNNNNNN

}  // namespace tfs::autograph::detail
