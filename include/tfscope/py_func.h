// The hook through which the EagerPyFunc and PyFunc kernels (tf.py_function, tf.numpy_function)
// call Python: the Python module installs a runner; without one the kernels fail cleanly.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {

// Runs the Python function registered under `token` on `inputs` (eager: tensors, else numpy
// values) and returns its results converted to `out_types`; a Python exception is an
// InvalidArgument error with its type, message and traceback.
using PyFuncRunner = std::vector<Tensor> (*)(const std::string& token, bool eager,
                                             std::span<const Tensor> inputs,
                                             const std::vector<DType>& out_types);
void set_py_func_runner(PyFuncRunner runner);

}  // namespace tfs
