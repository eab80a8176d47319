// tfscope lint: finds tf.function retrace and graph-mode hazards in Python source before it runs,
// using the AutoGraph layer's parser and analyses. Rules have stable codes (TFS1xx retracing,
// TFS2xx trace-time side effects, TFS3xx state, TFS4xx AutoGraph, TFS5xx export), a one-line
// message in TF's vocabulary and a fix hint. Findings can be joined with a run-time call ledger
// (tfscope's `fn.ledger_json()`) to mark those confirmed by what actually retraced.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tfs::lint {

struct Rule {
  std::string_view code;     // "TFS101"
  std::string_view name;     // "tf-function-in-loop"
  std::string_view summary;  // what the rule finds, one sentence
  std::string_view hint;     // how to fix it, one sentence
};

// Every rule, in code order. TFS000 is the syntax error of a file that does not parse.
const std::vector<Rule>& rules();
const Rule* find_rule(std::string_view code);

struct Finding {
  std::string path;
  int line = 0, col = 0;  // 1-based
  std::string code;
  std::string message;  // one line
  std::string hint;
  // Join keys for the run-time ledger: the tf.function the finding is about (its name and the
  // line of its def, decorators included in the span), 0 when none.
  std::string function;
  int function_first_line = 0, function_last_line = 0;
  bool confirmed = false;  // set by confirm_with_ledger
  std::string evidence;    // the ledger's words when confirmed
};

// --select / --ignore: codes or code prefixes ("TFS1", "TFS203"); an empty select means all.
struct Selection {
  std::vector<std::string> select, ignore;
  bool enabled(std::string_view code) const;
};

struct Options {
  Selection selection;
  int unroll_threshold = 100;  // TFS406: Python range loops at least this long
};

// Bad command-line input or configuration: the CLI exits with status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Lints one module. `# noqa` / `# noqa: TFS101,TFS203` comments and the selection are applied;
// a module that does not parse gives one TFS000 finding with the syntax error's position.
std::vector<Finding> lint_source(std::string_view source, std::string_view path,
                                 const Options& options = {});

// The `[tool.tfscope.lint]` table of the pyproject.toml nearest to `path` (walking up from its
// directory, as ruff does). Throws UsageError for a malformed file or a bad value.
struct Config {
  std::string file;        // the pyproject.toml it came from
  bool has_table = false;  // whether that file has a [tool.tfscope.lint] table
  std::optional<std::vector<std::string>> select, ignore;
  std::vector<std::string> exclude;  // path components or glob patterns (fnmatch) to skip
  std::optional<int> unroll_threshold;
};
std::optional<Config> find_config(const std::string& path);
Config parse_config(std::string_view pyproject_text, const std::string& file);

// The Python files under `paths` (files are taken as given, directories searched recursively for
// *.py, skipping hidden directories and `exclude`), sorted. Throws UsageError for a missing path.
std::vector<std::string> collect_files(const std::vector<std::string>& paths,
                                       const std::vector<std::string>& exclude = {});

// Marks the findings that a run confirmed. `ledger_json` is tfscope's ledger JSON: one object as
// `fn.ledger_json()` returns it, a JSON array of them, or {"ledgers": [...]}. Each carries the
// function's "function", "file" and "line" (its def) and, per traced entry, "call_site"
// ("file:line"). Returns the number of findings confirmed. Throws UsageError for bad JSON.
int confirm_with_ledger(std::vector<Finding>& findings, std::string_view ledger_json);

enum class Format { Text, Json, Sarif };
// `file:line:col: CODE message` lines (with the hint below each) and a summary line.
std::string text_report(const std::vector<Finding>& findings, int files_checked);
std::string json_report(const std::vector<Finding>& findings);
// SARIF 2.1.0 for code scanning: one run, the rules that fired as reportingDescriptors.
std::string sarif_report(const std::vector<Finding>& findings);

}  // namespace tfs::lint
