// The call ledger: records, their folding, and the text and JSON views; RetraceProbe.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "ledger_clock.h"
#include "ledger_log.h"
#include "tfscope/function.h"
#include "tfscope/gradient_functions.h"

namespace tfs {

namespace detail {

LedgerLog::Record* LedgerLog::fold_hit(int call, size_t request_hash, const void* cf) {
  if (records_.empty() || request_hash == 0) return nullptr;
  Record& last = records_.back();
  const LedgerEntry& e = last.entry;
  bool continues = !e.traced && !e.failed && !e.concrete_only && e.request_hash == request_hash &&
                   last.cf == cf && e.call + e.count == call && e.evicted.empty();
  if (!continues) return nullptr;
  last.entry.count += 1;
  return &last;
}

LedgerLog::Record& LedgerLog::add(LedgerEntry entry, const void* cf) {
  Record& r = records_.emplace_back();
  r.entry = std::move(entry);
  r.cf = cf;
  return r;
}

void LedgerLog::run_failed(Record& r, int call, const std::string& error) {
  LedgerEntry& e = r.entry;
  bool last_of_record = &r == &records_.back() && e.call + e.count - 1 == call;
  if (last_of_record && e.count == 1) {
    e.failed = true;
    e.error = error;
    return;
  }
  LedgerEntry f;
  f.call = call;
  f.concrete_function = e.concrete_function;
  f.args = e.args;
  f.failed = true;
  f.error = error;
  if (last_of_record) {
    e.count -= 1;  // the failed call leaves the folded run
  } else {
    f.count = 0;  // still counted in the run another thread's hit extended
  }
  add(std::move(f), r.cf);
}

CallLedger LedgerLog::snapshot() const {
  CallLedger l;
  l.entries.reserve(records_.size());
  for (const Record& r : records_) {
    LedgerEntry e = r.entry;
    e.run_us += LedgerClock::to_ns(r.run_ticks.load(std::memory_order_relaxed)) / 1000.0;
    l.entries.push_back(std::move(e));
  }
  return l;
}

}  // namespace detail

namespace {

// The gradient function pairs the calls of an entry built (a call under a tape, or a trace that
// takes the gradient of a call), from the process's record of them.
std::vector<GradientFunctionPair> built_gradient_functions(const LedgerEntry& e) {
  if (e.failed || e.concrete_function.empty()) return {};
  return gradient_functions_built_by(e.concrete_function, e.call,
                                     e.call + std::max(e.count, 1) - 1);
}

std::string call_name(int call) {
  return call > 0 ? "call " + std::to_string(call) : "the trace";
}

}  // namespace

int CallLedger::calls() const {
  int n = 0;
  for (auto& e : entries) n += e.concrete_only ? 0 : e.count;
  return n;
}

int CallLedger::traces() const {
  int n = 0;
  for (auto& e : entries) n += e.traced ? 1 : 0;
  return n;
}

std::string CallLedger::text() const {
  std::string s = std::to_string(calls()) + " calls, " + std::to_string(traces()) + " traces\n";
  for (auto& e : entries) {
    std::string what = e.concrete_only ? "get_concrete_function" : "call " + std::to_string(e.call);
    if (e.failed) {
      s += what + " failed: " + e.error.substr(0, e.error.find('\n')) + "\n";
      continue;
    }
    char times[96];
    std::snprintf(times, sizeof times, " [trace %.0f us, run %.0f us]", e.trace_us, e.run_us);
    if (e.traced) {
      s += what + " traced: " + e.reason + " -> " + e.concrete_function + times + "\n";
    } else {
      std::snprintf(times, sizeof times, " [run %.0f us]", e.run_us);
      if (e.count > 1) {
        what = "calls " + std::to_string(e.call) + "-" + std::to_string(e.call + e.count - 1);
        s += what + " hit " + e.concrete_function + " (" + std::to_string(e.count) + " calls)" +
             times + "\n";
      } else {
        s += what + " hit " + e.concrete_function + times + "\n";
      }
    }
    s += "    args: " + e.args + "\n";
    for (auto& ev : e.evicted) s += "    evicted: " + ev + "\n";
    for (auto& p : built_gradient_functions(e))
      s +=
          "    " + call_name(p.call) + " built gradient functions: " + gradient_pair_text(p) + "\n";
  }
  return s;
}

std::string CallLedger::json() const {
  nlohmann::ordered_json j;
  j["calls"] = calls();
  j["traces"] = traces();
  j["entries"] = nlohmann::ordered_json::array();
  for (auto& e : entries) {
    nlohmann::ordered_json x;
    x["call"] = e.call;
    x["count"] = e.count;
    x["kind"] = e.concrete_only ? "get_concrete_function" : "call";
    x["traced"] = e.traced;
    x["concrete_function"] = e.concrete_function;
    x["args"] = e.args;
    x["reason"] = e.reason;
    x["trace_us"] = e.trace_us;
    x["run_us"] = e.run_us;
    if (!e.evicted.empty()) x["evicted"] = e.evicted;
    auto built = built_gradient_functions(e);
    if (!built.empty()) {
      x["gradient_functions"] = nlohmann::ordered_json::array();
      for (auto& p : built) {
        x["gradient_functions"].push_back({{"call", p.call},
                                           {"of", p.of},
                                           {"forward", p.forward},
                                           {"backward", p.backward},
                                           {"kind", p.kind},
                                           {"forward_nodes", p.forward_nodes},
                                           {"backward_nodes", p.backward_nodes}});
      }
    }
    if (e.failed) x["error"] = e.error;
    j["entries"].push_back(x);
  }
  return j.dump();
}

RetraceProbe::RetraceProbe(std::shared_ptr<Function> fn) : fn_(std::move(fn)) {
  CallLedger l = fn_->ledger();
  start_ = l.entries.size();
  start_calls_ = l.calls();
  start_traces_ = l.traces();
}

std::vector<LedgerEntry> RetraceProbe::entries() const {
  auto all = fn_->ledger().entries;
  return std::vector<LedgerEntry>(all.begin() + static_cast<long>(start_), all.end());
}

int RetraceProbe::traces() const {
  return fn_->ledger().traces() - start_traces_;
}

int RetraceProbe::calls() const {
  return fn_->ledger().calls() - start_calls_;
}

std::string RetraceProbe::report() const {
  CallLedger l;
  l.entries = entries();
  return "RetraceProbe(" + fn_->name() + "): " + l.text();
}

}  // namespace tfs
