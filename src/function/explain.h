// The ledger's words: why a call traced, and what it was called with.
#pragma once

#include <string>

#include "binding.h"
#include "tfscope/trace_cache.h"

namespace tfs::detail {

// The reason a request traced, against the closest trace cached in `scope`.
// `scope_without_creation`: the scope is the one TF traces in after a first trace created
// variables.
std::string explain_retrace(const TraceCache& cache, const FunctionType& req, int scope,
                            bool scope_without_creation);
// "x=int32 (2,), factor=2".
std::string args_summary(const BoundArguments& a);

}  // namespace tfs::detail
