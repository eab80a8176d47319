// tfs::lint for the Python API (tfscope.lint): lint source text or files, the rule table, and
// the join with a run-time ledger. The package's lint.py shapes findings into Finding objects.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "convert.h"
#include "tfscope/lint.h"

namespace tfpy {

namespace {

namespace lint = tfs::lint;

nb::dict as_dict(const lint::Finding& f) {
  nb::dict d;
  d["path"] = f.path;
  d["line"] = f.line;
  d["col"] = f.col;
  d["code"] = f.code;
  d["message"] = f.message;
  d["hint"] = f.hint;
  d["function"] = f.function;
  d["function_first_line"] = f.function_first_line;
  d["function_last_line"] = f.function_last_line;
  d["confirmed"] = f.confirmed;
  d["evidence"] = f.evidence;
  return d;
}

lint::Finding from_dict(const nb::dict& d) {
  lint::Finding f;
  f.path = nb::cast<std::string>(d["path"]);
  f.line = nb::cast<int>(d["line"]);
  f.col = nb::cast<int>(d["col"]);
  f.code = nb::cast<std::string>(d["code"]);
  f.message = nb::cast<std::string>(d["message"]);
  f.hint = nb::cast<std::string>(d["hint"]);
  f.function = nb::cast<std::string>(d["function"]);
  f.function_first_line = nb::cast<int>(d["function_first_line"]);
  f.function_last_line = nb::cast<int>(d["function_last_line"]);
  f.confirmed = nb::cast<bool>(d["confirmed"]);
  f.evidence = nb::cast<std::string>(d["evidence"]);
  return f;
}

// Findings as tfscope.lint passes them (dataclasses.asdict of each Finding).
std::vector<lint::Finding> from_list(const nb::list& findings) {
  std::vector<lint::Finding> fs;
  for (nb::handle h : findings) fs.push_back(from_dict(nb::cast<nb::dict>(h)));
  return fs;
}

lint::Options options(const std::vector<std::string>& select,
                      const std::vector<std::string>& ignore, int unroll_threshold) {
  lint::Options o;
  for (const auto& c : select) o.selection.select.push_back(c);
  for (const auto& c : ignore) o.selection.ignore.push_back(c);
  o.unroll_threshold = unroll_threshold;
  return o;
}

// lint's usage errors (a bad selection, bad ledger JSON) are the caller's ValueError.
template <class F>
auto usage_as_value_error(F&& f) {
  try {
    return f();
  } catch (const lint::UsageError& e) {
    throw nb::value_error(e.what());
  }
}

}  // namespace

void bind_lint(nb::module_& m) {
  m.def("_lint_rules", [] {
    nb::list out;
    for (const auto& r : lint::rules()) {
      nb::dict d;
      d["code"] = std::string(r.code);
      d["name"] = std::string(r.name);
      d["summary"] = std::string(r.summary);
      d["hint"] = std::string(r.hint);
      out.append(d);
    }
    return out;
  });
  m.def(
      "_lint_source",
      [](const std::string& source, const std::string& path, const std::vector<std::string>& select,
         const std::vector<std::string>& ignore, int unroll_threshold) {
        std::vector<lint::Finding> found;
        {
          nb::gil_scoped_release release;
          found = lint::lint_source(source, path, options(select, ignore, unroll_threshold));
        }
        nb::list out;
        for (const auto& f : found) out.append(as_dict(f));
        return out;
      },
      nb::arg("source"), nb::arg("path"), nb::arg("select"), nb::arg("ignore"),
      nb::arg("unroll_threshold"));
  m.def("_lint_collect_files",
        [](const std::vector<std::string>& paths, const std::vector<std::string>& exclude) {
          return usage_as_value_error([&] { return lint::collect_files(paths, exclude); });
        });
  m.def("_lint_confirm", [](nb::list findings, const std::string& ledger_json) {
    std::vector<lint::Finding> fs = from_list(findings);
    usage_as_value_error([&] { return lint::confirm_with_ledger(fs, ledger_json); });
    nb::list out;
    for (const auto& f : fs) out.append(as_dict(f));
    return out;
  });
  m.def("_lint_report", [](nb::list findings, const std::string& format, int files_checked) {
    std::vector<lint::Finding> fs = from_list(findings);
    if (format == "text") return lint::text_report(fs, files_checked);
    if (format == "json") return lint::json_report(fs);
    if (format == "sarif") return lint::sarif_report(fs);
    throw nb::value_error(
        ("unknown lint report format '" + format + "' (expected one of: text, json, sarif)")
            .c_str());
  });
}

}  // namespace tfpy
