// TF's StructuredValue (nested_structure_coder's proto: the object graph's input and output
// signatures, a function's FullArgSpec) <-> tfscope's Value.
#pragma once

#include <string>

#include "tfscope/proto/struct.pb.h"
#include "tfscope/value.h"

namespace tfs::savedmodel::detail {

// None, bool, int, float, str, list, tuple, dict (keys sorted, as nest orders them),
// namedtuple and TensorSpec; any other kind (a TypeSpec, a numpy value) is a FormatError
// naming `where` and the kind.
Value structured_to_value(const tensorflow::StructuredValue& s, const std::string& where);

// The inverse for the kinds above; a tensor or variable (no structured form) throws.
void value_to_structured(const Value& v, tensorflow::StructuredValue* out);

}  // namespace tfs::savedmodel::detail
