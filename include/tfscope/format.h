// Text forms of values, as numpy, Python and TF print them.
#pragma once

#include <string>

#include "tfscope/tensor.h"

namespace tfs {

// numpy's str(array): "[1 2]", "[1.5 2. ]", "[[1 2]\n [3 4]]", "[ True False]", "[b'a' b'b']".
std::string format_numpy_str(const Tensor& t);
// numpy's repr(array): "array([1, 2], dtype=int32)".
std::string format_numpy_repr(const Tensor& t);
// TF's summarised value text as tf.print / StringFormat write it: "[1 2 3 ... 8 9 10]".
// summarize < 0 prints every element.
std::string format_tf_summarize(const Tensor& t, int summarize);
// Python's repr(float).
std::string python_float_repr(double d);
// Shortest decimal digits that round-trip for float32 / float64, as %g-like text without
// exponent handling ("0.1", "2", "1e-05" for float32 1e-5).
std::string shortest_float_str(double v, bool is_float32);

}  // namespace tfs
