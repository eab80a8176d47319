// `tfscope watch [options] script.py [args...]`: runs `python -m tfscope watch ...` (the watch is
// Python: it patches the program's own TensorFlow), with every argument passed on unchanged, in
// the Python python_finder.h finds.
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"
#include "python_finder.h"

namespace tfscope_cli {
namespace {

int run_watch(const std::vector<std::string>& args) {
  const std::string python = find_tfscope_python();
  std::vector<std::string> argv = {python, "-m", "tfscope", "watch"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  ::execv(python.c_str(), cargv.data());
  throw std::runtime_error("cannot run " + python);
}

}  // namespace

void add_watch_command(CLI::App& app, Action& action) {
  CLI::App* cmd = app.add_subcommand(
      "watch",
      "Run a real TensorFlow program and explain every trace of its tf.functions (the same as "
      "python -m tfscope watch; its options: tfscope watch --help)");
  cmd->prefix_command();
  cmd->set_help_flag();  // --help goes to the Python command, which knows the options
  cmd->callback([cmd, &action] {
    const std::vector<std::string> args = cmd->remaining();
    action = [args] { return run_watch(args); };
  });
}

}  // namespace tfscope_cli
