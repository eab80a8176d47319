// The tfscope subcommands. Each adds itself to the app and, when chosen, runs and returns the
// process exit status. Adding a subcommand: declare its add_* function here, define it in its own
// file, and list it in kCommands in main.cc.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace CLI {
class App;
}

namespace tfscope_cli {

// A failure whose text is TF's or Python's, printed after its class: "[autograph] SyntaxError:
// too many nested parentheses (f.py, line 2)".
class TypedError : public std::runtime_error {
 public:
  TypedError(std::string type, const std::string& message)
      : std::runtime_error(message), type_(std::move(type)) {}
  const std::string& type() const { return type_; }

 private:
  std::string type_;
};

// Set by the chosen subcommand's callback: runs after parsing succeeded.
using Action = std::function<int()>;

// Each returns nothing; the subcommand stores its action in `action` when CLI11 selects it.
void add_demo_command(CLI::App& app, Action& action);
void add_autograph_command(CLI::App& app, Action& action);
void add_inspect_command(CLI::App& app, Action& action);
void add_convert_command(CLI::App& app, Action& action);
void add_lint_command(CLI::App& app, Action& action);
void add_watch_command(CLI::App& app, Action& action);

}  // namespace tfscope_cli
