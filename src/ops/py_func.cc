// tf.py_function and tf.numpy_function: the EagerPyFunc and PyFunc ops, whose kernels call back
// into Python through the runner the Python module installs (set_py_func_runner); the callback
// runs every time the op runs, as TF's.
#include "tfscope/py_func.h"

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

PyFuncRunner g_runner = nullptr;

OpDef py_func_def(const std::string& name, bool eager, bool stateful) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "", DType::kInvalid, "", "Tin"}};
  d.outputs = {{"output", "", DType::kInvalid, "", "Tout"}};
  d.stateful = stateful;
  d.shape_fn = [](InferenceContext& c) {
    for (size_t i = 0; i < c.output_shapes.size(); ++i) c.output_shapes[i] = PartialShape();
  };
  d.kernel = [eager](OpKernelContext& ctx) {
    if (!g_runner) ctx.fail("[ops] no Python runtime to call a py_function in");
    const std::string& token = attr_string(*ctx.attrs, "token");
    const std::vector<DType>& tout = attr_types(*ctx.attrs, "Tout");
    std::vector<Tensor> outs = g_runner(token, eager, ctx.inputs, tout);
    if (outs.size() != tout.size()) {
      ctx.fail("Expected " + std::to_string(tout.size()) +
               " output(s) from the Python function, got " + std::to_string(outs.size()));
    }
    for (size_t i = 0; i < outs.size(); ++i)
      ctx.set_output(static_cast<int>(i), std::move(outs[i]));
  };
  return d;
}

OpRegistration r_eager_py_func(py_func_def("EagerPyFunc", true, true));
OpRegistration r_py_func(py_func_def("PyFunc", false, true));
OpRegistration r_py_func_stateless(py_func_def("PyFuncStateless", false, false));

}  // namespace

void set_py_func_runner(PyFuncRunner runner) {
  g_runner = runner;
}

namespace detail {
void anchor_py_func_ops() {}
}  // namespace detail
}  // namespace tfs
