// `tfscope lint PATH...`: retrace and graph-mode hazards in Python source, as text, JSON or
// SARIF; `--ledger report.json` marks the findings a run confirmed. Exit status: 0 when there is
// no finding, 1 when there are findings, 2 on a usage error.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "commands.h"
#include "tfscope/lint.h"

namespace tfscope_cli {
namespace {

struct LintOptions {
  std::vector<std::string> paths;
  std::string format = "text";
  std::vector<std::string> select, ignore;
  std::string ledger;
  bool no_config = false;
};

std::string read_file(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_codes(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (const std::string& a : args) {
    size_t p = 0;
    while (p <= a.size()) {
      size_t q = a.find(',', p);
      std::string code = a.substr(p, q == std::string::npos ? std::string::npos : q - p);
      if (!code.empty()) {
        bool ok = code == "ALL" || (code.rfind("TFS", 0) == 0 && code.size() <= 6);
        for (size_t i = 3; ok && i < code.size(); ++i) ok = std::isdigit((unsigned char)code[i]);
        if (!ok) throw tfs::lint::UsageError("[lint] unknown rule code '" + code + "'");
        out.push_back(code);
      }
      if (q == std::string::npos) break;
      p = q + 1;
    }
  }
  return out;
}

int usage_error(const std::string& what) {
  std::fprintf(stderr, "tfscope: error: %s\n", what.substr(0, what.find('\n')).c_str());
  return 2;
}

int run_lint(const LintOptions& o) {
  try {
    if (o.format != "text" && o.format != "json" && o.format != "sarif")
      throw tfs::lint::UsageError("[lint] --format must be text, json or sarif, got '" + o.format +
                                  "'");
    std::vector<std::string> select = split_codes(o.select), ignore = split_codes(o.ignore);
    // the configuration of the first path's project (ruff finds it the same way)
    std::optional<tfs::lint::Config> config;
    if (!o.no_config) config = tfs::lint::find_config(o.paths.front());
    tfs::lint::Options opts;
    opts.selection.select = !select.empty()            ? select
                            : config && config->select ? *config->select
                                                       : select;
    opts.selection.ignore = !ignore.empty()            ? ignore
                            : config && config->ignore ? *config->ignore
                                                       : ignore;
    if (config && config->unroll_threshold) opts.unroll_threshold = *config->unroll_threshold;
    std::vector<std::string> files =
        tfs::lint::collect_files(o.paths, config ? config->exclude : std::vector<std::string>{});
    std::vector<tfs::lint::Finding> all;
    for (const std::string& f : files) {
      bool ok = false;
      std::string src = read_file(f, &ok);
      if (!ok) throw tfs::lint::UsageError("[lint] " + f + ": cannot read the file");
      auto found = tfs::lint::lint_source(src, f, opts);
      all.insert(all.end(), std::make_move_iterator(found.begin()),
                 std::make_move_iterator(found.end()));
    }
    if (!o.ledger.empty()) {
      bool ok = false;
      std::string text = read_file(o.ledger, &ok);
      if (!ok) throw tfs::lint::UsageError("[lint] " + o.ledger + ": cannot read the ledger");
      tfs::lint::confirm_with_ledger(all, text);
    }
    std::string out = o.format == "json"    ? tfs::lint::json_report(all)
                      : o.format == "sarif" ? tfs::lint::sarif_report(all)
                                            : tfs::lint::text_report(all, int(files.size()));
    std::fputs(out.c_str(), stdout);
    return all.empty() ? 0 : 1;
  } catch (const tfs::lint::UsageError& e) {
    return usage_error(e.what());
  }
}

}  // namespace

void add_lint_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint",
      "Find tf.function retrace and graph-mode hazards in Python files (TFS1xx retracing, "
      "TFS2xx trace-time side effects, TFS3xx state, TFS4xx AutoGraph, TFS5xx export)");
  cmd->add_option("paths", opts->paths, "Python files and directories (searched for *.py)")
      ->required();
  cmd->add_option("--format", opts->format, "Output format: text (default), json or sarif");
  cmd->add_option("--select", opts->select,
                  "Only these rule codes or prefixes (comma-separated, e.g. TFS1,TFS203)");
  cmd->add_option("--ignore", opts->ignore, "Skip these rule codes or prefixes");
  cmd->add_option("--ledger", opts->ledger,
                  "tfscope ledger JSON of a run (fn.ledger_json()): mark the findings it "
                  "confirms");
  cmd->add_flag("--no-config", opts->no_config, "Ignore [tool.tfscope.lint] in pyproject.toml");
  cmd->callback([opts, &action] { action = [opts] { return run_lint(*opts); }; });
}

}  // namespace tfscope_cli
