// The gradient functions built for traced functions: TF's forward/backward pair per function
// (`__forward_f_27` and `__inference___backward_f_15_28`), one record per pair in the order they
// were built, with the call that built them, for the ledger and the GraphReport. A tfscope
// extension (TF keeps the pairs in each ConcreteFunction's caches and its context's library).
#pragma once

#include <string>
#include <vector>

namespace tfs {

struct GradientFunctionPair {
  std::string of;        // the function differentiated: __inference_f_13
  std::string forward;   // __forward_f_27: `of` with the tensors the backward reads as outputs
  std::string backward;  // __inference___backward_f_15_28
  int forward_nodes = 0, backward_nodes = 0;
  // Why TF builds it: "tape" (an eager call a tape records, only first-order gradients
  // possible), "higher-order tape" (a persistent tape or nested tapes record the call), "graph"
  // (a gradient of the call taken while a graph is built: TF's delayed rewrite).
  std::string kind;
  // The concrete function whose call built the pair, and that call's number in its Function's
  // ledger (0: no call of a Function, e.g. get_concrete_function's trace or a plain graph).
  // Eagerly the call of `of` itself; for "graph", the function being traced.
  std::string built_by;
  int call = 0;
};

// Records a pair (thread-safe); fills built_by and call from the call or trace in progress.
void record_gradient_functions(GradientFunctionPair p);
// Every pair recorded so far, in the order they were built.
std::vector<GradientFunctionPair> gradient_functions();
// The pairs a call (or calls first..last) of concrete function `cf` built.
std::vector<GradientFunctionPair> gradient_functions_built_by(const std::string& cf, int first,
                                                              int last);
// The pairs built for function `of`.
std::vector<GradientFunctionPair> gradient_functions_of(const std::string& of);
// Why it was built: "a GradientTape recorded the call", ...
std::string gradient_pair_reason(const GradientFunctionPair& p);
// One line for the ledger and the report: "__forward_f_27, __inference___backward_f_15_28 of
// __inference_f_13 (a GradientTape recorded the call)".
std::string gradient_pair_text(const GradientFunctionPair& p);

namespace detail {

// What the function layer tells this registry (the graph layer cannot call it): which Function
// owns a trace and how to read the number of the call it is running, and, per thread, the call
// whose trace is in progress.
using LatestCall = int (*)(const void* owner);
void note_trace_owner(const std::string& cf, const void* owner, LatestCall latest);
void forget_trace_owner(const void* owner);

class TracingCallScope {
 public:
  explicit TracingCallScope(int call);  // 0: not a call (get_concrete_function, saving)
  ~TracingCallScope();
  TracingCallScope(const TracingCallScope&) = delete;
  TracingCallScope& operator=(const TracingCallScope&) = delete;
  // The concrete function the trace makes (known once the tracer names it).
  static void set_function(const std::string& cf);

 private:
  TracingCallScope* outer_;
  int call_;
  std::string cf_;
  friend void tfs::record_gradient_functions(GradientFunctionPair p);
};

}  // namespace detail
}  // namespace tfs
