// Argument binding as Python's inspect.Signature.bind + apply_defaults, then TF's unrolling of
// *args (args_0, args_1, ... positional-only) and **kwargs (keyword-only, sorted by name).
#pragma once

#include <string>
#include <vector>

#include "tfscope/function.h"

namespace tfs::detail {

struct BoundArguments {
  std::vector<std::string> names;
  std::vector<ParamKind> kinds;
  std::vector<Value> values;
  // How the body is called: positional values, then keyword-only ones by name.
  size_t num_positional = 0;
};

// Throws TypeError with CPython's inner texts ("missing a required argument: 'factor'").
BoundArguments bind_arguments(const std::vector<Parameter>& params, const std::vector<Value>& args,
                              const Kwargs& kwargs);

// "(x, factor=<captured_default_value>)": how TF prints a signature with no input_signature.
std::string plain_signature_text(const std::vector<Parameter>& params);
// "(<tf.Tensor: ...>, 2)" and "{'y': 1}".
std::string args_repr(const std::vector<Value>& args);
std::string kwargs_repr(const Kwargs& kwargs);

}  // namespace tfs::detail
