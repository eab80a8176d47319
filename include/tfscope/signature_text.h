// TF 2.21's texts for a concrete function's signature, in one place for every function that prints
// one: a traced ConcreteFunction, a restored one (tf.saved_model.load's saved traces) and a loaded
// SavedModel signature. The verbose form is "Input Parameters: ... Output Type: ... Captures: ...";
// the short one "(x: TensorSpec(...), *, k: Literal[2]) -> <output type>".
#pragma once

#include <string>
#include <vector>

#include "tfscope/function_type.h"
#include "tfscope/value.h"

namespace tfs {

// "(x: TensorSpec(...), *, k: Literal[2])": a "*" before the first keyword-only parameter, a "/"
// after the last positional-only one.
std::string parameters_text(const std::vector<TypedParameter>& params);

// TF's Output Type of a structure of outputs: a tensor prints as its TensorSpec (name=None), a
// saved spec (a restored function's) as itself with its name, None as Literal[None], lists,
// tuples, dicts and namedtuples structurally (`P[['u', ...], ['w', ...]]`), a composite result
// (a RaggedTensor) as its TypeSpec.
std::string output_type_text(const Value& structured_outputs);

// A captured tensor's line in the verbose form: "<id>: TensorSpec(shape=(), dtype=tf.resource,
// name=None)" (the id names the external tensor, as TF prints the Python id of the capture).
std::string capture_text(const Tensor& external);

// The whole signature. `captures` are the capture_text lines of the verbose form (none prints
// "None", as a restored function's trace always does).
std::string signature_text(const std::vector<TypedParameter>& params,
                           const Value& structured_outputs,
                           const std::vector<std::string>& captures, bool verbose);

// TF's sanitize_spec_name, how a saved TensorSpec is named after its nest path ("b_0"): lower
// case, "_" for every character but letters and digits, "tensor_" before a name that does not
// start with a letter, "unknown" for none.
std::string sanitize_spec_name(const std::string& path);

}  // namespace tfs
