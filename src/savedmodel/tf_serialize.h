// Protobuf serialization in the exact byte order TensorFlow 2.21's Python writer produces.
#pragma once

#include <google/protobuf/message.h>

#include <string>

namespace tfs::savedmodel::detail {

// TF writes saved_model.pb with Python protobuf (upb) and deterministic=True. Fields come in number
// order as in C++, but upb sorts map entries its own way: integer keys descending; string keys by
// their common prefix (memcmp) ascending and, when one key is a prefix of the other, the longer
// first ("ab" before "a"). This reorders the map entries of a C++ serialization that way; entry
// sizes do not change, so it works in place.
void reorder_maps_like_upb(std::string& bytes, const google::protobuf::Descriptor* type);

}  // namespace tfs::savedmodel::detail
