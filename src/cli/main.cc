// tfscope: the command-line face of the engine. Subcommands live in their own files; this file
// only parses, dispatches and turns failures into one-line errors with a non-zero status.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>

#include "commands.h"
#include "tfscope/errors.h"

namespace tfscope_cli {
namespace {

using AddCommand = void (*)(CLI::App&, Action&);

// One line per subcommand.
constexpr AddCommand kCommands[] = {
    add_demo_command,
    add_autograph_command,
    add_inspect_command,
    add_convert_command,
    add_lint_command,
};

std::string first_line(const std::string& s) {
  return s.substr(0, s.find('\n'));
}

int fail(const std::string& what) {
  std::fprintf(stderr, "tfscope: error: %s\n", first_line(what).c_str());
  return 1;
}

}  // namespace
}  // namespace tfscope_cli

int main(int argc, char** argv) {
  using namespace tfscope_cli;
  CLI::App app{"tfscope: TensorFlow 2.21's tf.function tracing rules, made visible", "tfscope"};
  app.require_subcommand(1);
  Action action;
  for (AddCommand add : kCommands) add(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "tfscope: error: %s (see tfscope --help)\n", first_line(e.what()).c_str());
    return 2;
  }
  if (!action) return fail("no subcommand ran");
  try {
    return action();
  } catch (const tfs::Error& e) {
    return fail(std::string(e.python_type()) + ": " + e.what());
  } catch (const std::exception& e) {
    return fail(e.what());
  }
}
