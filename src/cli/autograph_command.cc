// `tfscope autograph FILE.py:FUNC [--converted]`: what TF 2.21's AutoGraph makes of a Python
// function, as a unified diff against the original (default) or as the converted source that
// tf.autograph.to_code prints.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include "commands.h"
#include "tfscope/autograph.h"

namespace tfscope_cli {
namespace {

struct AutographOptions {
  std::string target;  // FILE.py:FUNC
  bool converted = false;
};

int run_autograph(const AutographOptions& opts) {
  // FUNC never contains ':', a path may (rarely), so split at the last one.
  size_t colon = opts.target.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == opts.target.size())
    throw std::runtime_error("[autograph] expected FILE.py:FUNC, got '" + opts.target + "'");
  std::string path = opts.target.substr(0, colon);
  std::string func = opts.target.substr(colon + 1);
  try {
    tfs::autograph::ConversionResult r = tfs::autograph::convert_file(path, func);
    std::fputs(opts.converted ? r.converted.c_str() : r.diff.c_str(), stdout);
    return 0;
  } catch (const tfs::autograph::ConversionError& e) {
    // A construct AutoGraph rejects reads as TF reports it: "<TF exception type>: <message>".
    if (e.tf_type().empty()) throw;
    throw TypedError(e.tf_type(), e.what());
  }
}

}  // namespace

void add_autograph_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<AutographOptions>();
  CLI::App* cmd = app.add_subcommand(
      "autograph",
      "Convert a Python function as TF 2.21's AutoGraph does and print the unified diff "
      "(original -> converted), or the converted source with --converted");
  cmd->add_option("target", opts->target, "FILE.py:FUNC (FUNC may be Class.method)")->required();
  cmd->add_flag("--converted", opts->converted,
                "Print the converted source (tf.autograph.to_code's text) instead of the diff");
  cmd->callback([opts, &action] { action = [opts] { return run_autograph(*opts); }; });
}

}  // namespace tfscope_cli
