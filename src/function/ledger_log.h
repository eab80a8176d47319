// The ledger as a Function keeps it while calls happen: consecutive hits of one request on one
// trace folded into one record (no string formatted on such a hit), run times added without a
// lock. All members but add_run_time are called under the owning Function's lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <string>

#include "tfscope/ledger.h"

namespace tfs::detail {

class LedgerLog {
 public:
  struct Record {
    LedgerEntry entry;
    const void* cf = nullptr;  // the trace it hit or made (identity only)
    std::atomic<int64_t> run_ticks{0};  // LedgerClock ticks
  };

  // A hit of call `call` that continues the last record (same request type on the same trace,
  // the next call): folded into it. Null when it does not continue it.
  Record* fold_hit(int call, size_t request_hash, const void* cf);
  Record& add(LedgerEntry entry, const void* cf);
  // The run of the call recorded in `r` failed: the call gets an entry of its own saying so.
  void run_failed(Record& r, int call, const std::string& error);
  static void add_run_time(Record& r, int64_t ticks) {
    r.run_ticks.fetch_add(ticks, std::memory_order_relaxed);
  }

  CallLedger snapshot() const;

 private:
  std::deque<Record> records_;  // a deque keeps Record addresses stable as it grows
};

}  // namespace tfs::detail
