// The compiler IR: a traced graph lowered to XLA HLO text, op by op as TF 2.21's tf2xla kernels
// lower it, printed as `experimental_get_compiler_ir(...)(stage='hlo')` prints it. tfscope prints
// no source_file/source_line in metadata (TF's are the path of its own ops.py); `normalize`
// defines the form in which tfscope's text and TF's are compared.
#pragma once

#include <string>
#include <string_view>

#include "tfscope/graph.h"

namespace tfs::hlo {

struct LowerOptions {
  bool metadata = true;  // false: stage 'hlo_no_metadata'
};

// The HLO module text of `fn`. Throws tfs::Error (ValueError, TF's text) for an op XLA has no
// kernel for, and NotImplementedError for an op tfscope does not lower yet.
std::string module_text(const GraphFunction& fn, const LowerOptions& options = {});

// `experimental_get_compiler_ir(...)(stage=stage)`: 'hlo' and 'hlo_no_metadata' are produced;
// TF's ValueError for an unknown stage; NotImplementedError for stages tfscope cannot produce
// faithfully (the optimized ones need XLA's pass pipeline, the serialized ones HloModuleProto).
std::string compiler_ir(const GraphFunction& fn, std::string_view stage);

// The comparison form: drops source_file/source_line from metadata, replaces the function uid in
// the names of computations made from functions (the module, If branches, While bodies and
// conditions: "cond_true_12__.3" -> "cond_true_N__"), and renumbers every `name.N` identifier per
// base name in order of first appearance (XLA's suffixes come from its name uniquer and carry no
// meaning).
std::string normalize(std::string_view text);

}  // namespace tfs::hlo
