// The text of an eager kernel's failure as TF reports it. Kept out of ops.h so that the
// formatter's users (op dispatch, tf.data's iterators) share it without every op file
// depending on it.
#pragma once

#include <string>

#include "tfscope/op_def.h"

namespace tfs::detail {

// "{{function_node __wrapped__<op>_<list attr>_<n>_device_/job:localhost/replica:0/task:0/
// device:CPU:0}} <msg> [Op:<op>]" and the current eager name suffix (" name: ..."). The list
// attrs are the number and type-list attrs of the op's inputs and outputs, in name order, each
// with its length, as they fix the wrapper function's signature.
std::string eager_op_error_text(const OpDef& def, const AttrMap& attrs, const std::string& msg);

}  // namespace tfs::detail
