// confirm_with_ledger: joins findings with what a run recorded in tfscope's call ledgers.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "tfscope/lint.h"

namespace tfs::lint {
namespace {

using json = nlohmann::json;

struct Ledger {
  std::string function, file;
  int line = 0, calls = 0, traces = 0;
  std::vector<std::string> trace_reasons, trace_sites, errors;
};

std::string get_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}
int get_int(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int>() : 0;
}

Ledger read_ledger(const json& j) {
  if (!j.is_object()) throw UsageError("[lint] ledger: expected an object per function");
  Ledger l;
  l.function = get_string(j, "function");
  l.file = get_string(j, "file");
  l.line = get_int(j, "line");
  l.calls = get_int(j, "calls");
  l.traces = get_int(j, "traces");
  auto e = j.find("entries");
  if (e != j.end() && e->is_array())
    for (auto& x : *e) {
      if (!x.is_object()) continue;
      if (x.value("traced", false)) {
        l.trace_reasons.push_back(get_string(x, "reason"));
        l.trace_sites.push_back(get_string(x, "call_site"));
      }
      std::string err = get_string(x, "error");
      if (!err.empty()) l.errors.push_back(err.substr(0, err.find('\n')));
    }
  return l;
}

std::string canonical_path(const std::string& p) {
  std::error_code ec;
  auto c = std::filesystem::weakly_canonical(p, ec);
  return ec ? p : c.string();
}

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  return a == b || canonical_path(a) == canonical_path(b);
}

int site_line(const std::string& site) {
  size_t colon = site.rfind(':');
  return colon == std::string::npos ? 0 : std::atoi(site.c_str() + colon + 1);
}

}  // namespace

int confirm_with_ledger(std::vector<Finding>& findings, std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    std::string what = e.what();
    throw UsageError("[lint] ledger: invalid JSON (" + what.substr(what.find(']') + 2) + ")");
  }
  std::vector<Ledger> ledgers;
  if (j.is_object() && j.contains("ledgers")) j = j["ledgers"];
  if (j.is_array()) {
    for (auto& x : j) ledgers.push_back(read_ledger(x));
  } else {
    ledgers.push_back(read_ledger(j));
  }
  int confirmed = 0;
  for (Finding& f : findings) {
    if (f.function_first_line == 0) continue;
    // the ledgers of Functions made from this def (several when it was re-created in a loop)
    std::vector<const Ledger*> mine;
    for (auto& l : ledgers)
      if (same_file(l.file, f.path) && l.line >= f.function_first_line &&
          l.line <= f.function_last_line)
        mine.push_back(&l);
    if (mine.empty()) continue;
    int calls = 0, traces = 0;
    for (auto* l : mine) {
      calls += l->calls;
      traces += l->traces;
    }
    char family = f.code.size() > 3 ? f.code[3] : '0';
    if (family == '1') {
      if (traces < 2) continue;
      std::string why;
      for (auto* l : mine)
        for (size_t i = 0; i < l->trace_reasons.size(); ++i) {
          bool here = site_line(l->trace_sites[i]) == f.line;
          if (i == 0 && mine.size() == 1) continue;  // the first trace is no retrace
          if (why.empty() || here)
            why = l->trace_reasons[i] +
                  (l->trace_sites[i].empty() ? "" : " (call at " + l->trace_sites[i] + ")");
        }
      f.evidence = std::to_string(traces) + " traces in " + std::to_string(calls) + " calls" +
                   (mine.size() > 1 ? " of " + std::to_string(mine.size()) + " Functions" : "") +
                   (why.empty() ? "" : "; retraced: " + why);
    } else if (family == '2' || f.code == "TFS302") {
      if (traces < 1 || calls <= traces) continue;
      f.evidence = "the Python body ran at " + std::to_string(traces) + " of " +
                   std::to_string(calls) + " calls (only when tracing)";
    } else {
      std::string err;
      for (auto* l : mine)
        if (!l->errors.empty()) err = l->errors.front();
      if (err.empty()) continue;
      f.evidence = "the call failed: " + err;
    }
    f.confirmed = true;
    ++confirmed;
  }
  return confirmed;
}

}  // namespace tfs::lint
