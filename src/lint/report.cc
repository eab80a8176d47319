// The three output formats: text lines, JSON, and SARIF 2.1.0.
#include <nlohmann/json.hpp>
#include <set>

#include "tfscope/lint.h"

#ifndef TFSCOPE_VERSION
#define TFSCOPE_VERSION "0.0.0"
#endif

namespace tfs::lint {
namespace {

using json = nlohmann::ordered_json;

// A relative reference or a file: URI, percent-encoded as RFC 3986 asks.
std::string uri_of(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  bool absolute = !path.empty() && path[0] == '/';
  if (absolute) out = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

const char* level_of(const std::string& code) {
  return code == "TFS000" ? "error" : "warning";
}

}  // namespace

std::string text_report(const std::vector<Finding>& findings, int files_checked) {
  std::string s;
  int confirmed = 0;
  for (const Finding& f : findings) {
    s += f.path + ":" + std::to_string(f.line) + ":" + std::to_string(f.col) + ": " + f.code + " " +
         f.message + "\n";
    if (f.confirmed) {
      ++confirmed;
      s += "    confirmed at run time: " + f.evidence + "\n";
    }
    if (!f.hint.empty()) s += "    hint: " + f.hint + "\n";
  }
  std::string files = std::to_string(files_checked) + (files_checked == 1 ? " file" : " files");
  if (findings.empty()) {
    s += "All checks passed (" + files + ").\n";
  } else {
    s += "Found " + std::to_string(findings.size()) +
         (findings.size() == 1 ? " finding" : " findings") + " in " + files;
    if (confirmed) s += " (" + std::to_string(confirmed) + " confirmed at run time)";
    s += ".\n";
  }
  return s;
}

std::string json_report(const std::vector<Finding>& findings) {
  json out = json::array();
  for (const Finding& f : findings) {
    json x;
    x["path"] = f.path;
    x["line"] = f.line;
    x["col"] = f.col;
    x["code"] = f.code;
    const Rule* r = find_rule(f.code);
    x["rule"] = r ? std::string(r->name) : "";
    x["message"] = f.message;
    x["hint"] = f.hint;
    if (!f.function.empty()) x["function"] = f.function;
    x["confirmed"] = f.confirmed;
    if (f.confirmed) x["evidence"] = f.evidence;
    out.push_back(x);
  }
  return out.dump(2) + "\n";
}

std::string sarif_report(const std::vector<Finding>& findings) {
  std::vector<std::string> used;  // the rules that fired, in code order
  std::set<std::string> codes;
  for (const Finding& f : findings) codes.insert(f.code);
  json rules = json::array();
  for (const Rule& r : tfs::lint::rules()) {
    if (!codes.count(std::string(r.code))) continue;
    used.emplace_back(r.code);
    json d;
    d["id"] = std::string(r.code);
    d["name"] = std::string(r.name);
    d["shortDescription"] = {{"text", std::string(r.summary)}};
    d["help"] = {{"text", std::string(r.hint)}};
    d["defaultConfiguration"] = {{"level", level_of(std::string(r.code))}};
    rules.push_back(d);
  }
  json results = json::array();
  for (const Finding& f : findings) {
    json x;
    x["ruleId"] = f.code;
    auto it = std::find(used.begin(), used.end(), f.code);
    if (it != used.end()) x["ruleIndex"] = it - used.begin();
    x["level"] = level_of(f.code);
    x["message"] = {{"text", f.message}};
    json region = {{"startLine", std::max(1, f.line)}, {"startColumn", std::max(1, f.col)}};
    x["locations"] =
        json::array({{{"physicalLocation",
                       {{"artifactLocation", {{"uri", uri_of(f.path)}}}, {"region", region}}}}});
    if (f.confirmed) x["properties"] = {{"confirmed", true}, {"evidence", f.evidence}};
    results.push_back(x);
  }
  json driver;
  driver["name"] = "tfscope-lint";
  driver["version"] = TFSCOPE_VERSION;
  driver["rules"] = rules;
  json run;
  run["tool"] = {{"driver", driver}};
  run["results"] = results;
  json log;
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = json::array({run});
  return log.dump(2) + "\n";
}

}  // namespace tfs::lint
