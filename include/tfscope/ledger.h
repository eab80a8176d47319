// The call ledger: what each call of a Function did (hit which trace, or traced and why), in
// one line a user understands: "call 3 traced: x: shape (2,) -> (4,) -> __inference_scaled_2".
// A tfscope extension; TF records none of this.
#pragma once

#include <string>
#include <vector>

namespace tfs {

// One line of the ledger.
struct LedgerEntry {
  int call = 0;  // 1-based call index
  bool traced = false;
  bool concrete_only = false;  // get_concrete_function, not a call
  std::string concrete_function;
  std::string args;    // "x=int32 (2,), factor=2"
  std::string reason;  // "first call", "x: shape (2,) -> (4,)", ...
  double trace_us = 0;
  double run_us = 0;
  std::vector<std::string> evicted;
  // Consecutive cache hits of one request type on one concrete function share an entry: `count`
  // calls starting at `call`, run_us their total. Keeps the hit path free of string formatting
  // and the ledger's size proportional to what happened, not to the number of calls.
  int count = 1;
  size_t request_hash = 0;
  bool failed = false;
  std::string error;
};

class CallLedger {
 public:
  std::vector<LedgerEntry> entries;
  int calls() const;
  int traces() const;
  std::string text() const;
  std::string json() const;
};

}  // namespace tfs
