// The rule registry: one row per code. Codes are stable; messages use TF's own words.
#include <algorithm>

#include "tfscope/lint.h"

namespace tfs::lint {

const std::vector<Rule>& rules() {
  static const std::vector<Rule> table = {
      {"TFS000", "syntax-error", "The file does not parse as Python 3.11.",
       "Fix the syntax error; nothing else in the file was checked."},
      // retracing
      {"TFS101", "tf-function-in-loop",
       "A tf.function is created inside a loop: every iteration makes a new Function, which "
       "traces again.",
       "Create the tf.function once, outside the loop, and call it inside."},
      {"TFS102", "tf-function-in-function-called-in-loop",
       "A tf.function is created inside a function that is called in a loop: every call makes a "
       "new Function, which traces again.",
       "Create the tf.function once (at module level or in __init__) and reuse it."},
      {"TFS103", "varying-python-scalar-argument",
       "A Python scalar or string that changes every iteration is passed to a tf.function: each "
       "new value is a new Literal trace type, so the call retraces.",
       "Pass a tensor instead (tf.constant(value)) or give the tf.function an input_signature."},
      {"TFS104", "fresh-object-argument",
       "A new Python object, function or growing list is passed to a tf.function on every call: "
       "its trace type (object identity, or the list's length) is new each time, so the call "
       "retraces.",
       "Create the object once outside the loop, pass tensors, or implement "
       "__tf_tracing_type__."},
      {"TFS105", "tf-function-of-lambda-or-method-in-loop",
       "tf.function is applied to a lambda or a bound method inside a loop: each iteration wraps a "
       "new Python function object, which traces again.",
       "Wrap the function once, outside the loop."},
      {"TFS106", "keras-model-built-in-loop",
       "A Keras model is built inside a loop and predict/evaluate is called on it: each new model "
       "traces its own predict function again.",
       "Build the model once before the loop (reset weights with set_weights if needed)."},
      // side effects at trace time
      {"TFS201", "print-in-tf-function",
       "print() inside a tf.function runs only while tracing, not on every call.",
       "Use tf.print() to print on every call."},
      {"TFS202", "python-container-mutation-in-tf-function",
       "A Python list or dict outside the tf.function is mutated inside it: the mutation happens "
       "once, at trace time, and stores symbolic tensors.",
       "Return the values from the function, or use tf.TensorArray or a tf.Variable."},
      {"TFS203", "global-mutation-in-tf-function",
       "A global or nonlocal variable is rebound inside a tf.function: the assignment runs only "
       "while tracing.",
       "Keep the state in a tf.Variable and update it with assign/assign_add."},
      {"TFS204", "python-time-in-tf-function",
       "time.time() (or another Python clock) inside a tf.function is read once, at trace time, "
       "and baked into the graph as a constant.",
       "Use tf.timestamp() for the time at run time."},
      {"TFS205", "python-random-in-tf-function",
       "Python's random (or np.random) inside a tf.function draws once, at trace time: every call "
       "reuses the same number.",
       "Use tf.random ops (tf.random.uniform, tf.random.Generator)."},
      {"TFS206", "numpy-on-symbolic-tensor",
       "NumPy is called on a symbolic tensor inside a tf.function (or .numpy() is used): a "
       "symbolic tf.Tensor cannot be converted to a NumPy array.",
       "Use the TensorFlow op (tf.reduce_sum, tf.experimental.numpy) or wrap the NumPy code in "
       "tf.numpy_function."},
      // state
      {"TFS301", "variable-created-every-trace",
       "A tf.Variable (or a Keras layer that creates one) is created inside a tf.function outside "
       "a first-call guard: tf.function only supports singleton tf.Variables created on the first "
       "call.",
       "Create the variable outside the function, or once behind a guard such as "
       "`if self.v is None:`."},
      {"TFS302", "stale-captured-python-value",
       "A Python global or closure value is read by a tf.function at trace time and changed later: "
       "the traced graph keeps the old value.",
       "Pass the value as an argument (a tensor), or keep it in a tf.Variable."},
      // AutoGraph
      {"TFS401", "return-in-tensor-loop",
       "A return under a condition inside a TensorFlow loop: AutoGraph raises \"a return "
       "statement cannot be placed inside this TensorFlow loop\".",
       "Leave the loop with a tensor flag (or tf.while_loop's condition) and return after it."},
      {"TFS402", "tensor-break-in-python-loop",
       "A break or return that depends on a tensor inside a Python loop (while True:, "
       "for ... in range(n)): AutoGraph cannot turn it into a TensorFlow loop.",
       "Loop over tf.range() or put the tensor condition in the while test."},
      {"TFS403", "tensor-as-python-bool-without-autograph",
       "A tensor is used as a Python bool in a tf.function with autograph=False: this raises "
       "OperatorNotAllowedInGraphError.",
       "Drop autograph=False, or use tf.cond / tf.where / tf.while_loop."},
      {"TFS404", "lambdas-on-one-line",
       "Two lambdas with the same arguments on one line: AutoGraph cannot tell their source apart "
       "and runs them unconverted.",
       "Put each lambda on its own line, or give them different argument names."},
      {"TFS405", "source-not-found",
       "The function's source cannot be found (it comes from eval or exec): AutoGraph runs it "
       "unconverted, so tensor conditions in it fail.",
       "Define the function with def in a .py file."},
      {"TFS406", "unrolled-python-range-loop",
       "A long Python range() loop inside a tf.function is unrolled: the graph gets one copy of "
       "the loop body per iteration.",
       "Iterate over tf.range() to build a single tf.while_loop."},
      {"TFS407", "autograph-unsupported-construct",
       "AutoGraph could not transform the function (for/else, while/else, a generator or a "
       "mangled name) and will run it as-is.",
       "Rewrite the construct, or decorate the function with "
       "@tf.autograph.experimental.do_not_convert."},
      // export
      {"TFS501", "no-tflite-builtin",
       "A function converted to TFLite uses an op that has no TFLite builtin kernel: conversion "
       "fails unless Select TF ops are enabled.",
       "Use builtin ops, or add tf.lite.OpsSet.SELECT_TF_OPS to "
       "converter.target_spec.supported_ops."},
      {"TFS502", "untracked-variable-in-saved-function",
       "A saved function captures a tf.Variable that no saved object tracks: "
       "tf.saved_model.save refuses it (\"untracked resource\") and SavedModel cannot restore it.",
       "Assign the variable to an attribute of the saved object (module.v = v)."},
  };
  return table;
}

const Rule* find_rule(std::string_view code) {
  const auto& t = rules();
  auto it = std::find_if(t.begin(), t.end(), [&](const Rule& r) { return r.code == code; });
  return it == t.end() ? nullptr : &*it;
}

bool Selection::enabled(std::string_view code) const {
  auto matches = [&](const std::vector<std::string>& v) {
    return std::any_of(v.begin(), v.end(), [&](const std::string& p) {
      return p == "ALL" || code.substr(0, p.size()) == p;
    });
  };
  if (code == "TFS000") return true;  // a file that does not parse is always reported
  if (!select.empty() && !matches(select)) return false;
  return !matches(ignore);
}

}  // namespace tfs::lint
