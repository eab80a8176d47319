// The table of TF 2.21's OpDefs (tf_op_defs.inc) and its lookups.
#include "tf_op_defs.h"

#include <algorithm>

namespace tfs::detail {

const std::vector<TfOpDef>& tf_op_defs() {
  static const std::vector<TfOpDef> defs = {
#include "tf_op_defs.inc"
  };
  return defs;
}

const TfOpDef* tf_op_def(std::string_view op) {
  const auto& defs = tf_op_defs();  // generated in name order
  auto it = std::lower_bound(defs.begin(), defs.end(), op,
                             [](const TfOpDef& d, std::string_view n) { return std::string_view(d.name) < n; });
  return it != defs.end() && std::string_view(it->name) == op ? &*it : nullptr;
}

const char* tf_allowed_dtypes(const TfOpDef& def, std::string_view attr) {
  for (const auto& a : def.allowed)
    if (std::string_view(a.attr) == attr) return a.dtypes;
  return nullptr;
}

namespace {

// Calls f(name) for each name of a ", "-separated list.
template <typename F>
void each_name(std::string_view list, F&& f) {
  while (!list.empty()) {
    size_t comma = list.find(", ");
    f(list.substr(0, comma));
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 2);
  }
}

}  // namespace

bool dtype_in_list(std::string_view dtype, std::string_view list) {
  bool found = false;
  each_name(list, [&](std::string_view n) { found = found || n == dtype; });
  return found;
}

std::string python_dtype_list(std::string_view list) {
  std::string out;
  each_name(list, [&](std::string_view n) {
    if (!out.empty()) out += ", ";
    out += n == "half" ? "float16" : n == "float" ? "float32" : n == "double" ? "float64"
                                                                           : std::string(n);
  });
  return out;
}

}  // namespace tfs::detail
