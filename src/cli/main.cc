// tfscope: the command-line face of the engine. Subcommands live in their own files; this file
// only parses, dispatches and turns failures into one-line errors with a non-zero status.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "commands.h"
#include "tfscope/errors.h"

#ifndef TFSCOPE_VERSION
#define TFSCOPE_VERSION "unknown"
#endif

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
    add_watch_command,
};

// The first line, with control characters (a damaged file's bytes in a name) as \xNN.
std::string first_line(const std::string& s) {
  std::string out;
  for (char c : s.substr(0, s.find('\n'))) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// Every error is one line "tfscope: error: [component] message": a message that names its
// component ("[savedmodel] ...") keeps it, any other gets the subcommand's; an error whose text
// is TF's says TF's class first ("[convert] PermissionDeniedError: out.tflite; Permission denied").
int fail(const std::string& component, const std::string& type, const std::string& what) {
  std::string msg = first_line(what);
  std::string prefix = "[" + component + "] ";
  if (msg.size() > 2 && msg[0] == '[' && msg.find("] ") != std::string::npos) {
    const size_t end = msg.find("] ") + 2;
    prefix = msg.substr(0, end);
    msg = msg.substr(end);
  }
  if (!type.empty()) msg = msg.empty() ? type : type + ": " + msg;
  std::fprintf(stderr, "tfscope: error: %s%s\n", prefix.c_str(), msg.c_str());
  return 1;
}

std::string command_list(const CLI::App& app) {
  std::string out;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    out += (out.empty() ? "" : ", ") + sub->get_name();
  return out;
}

}  // namespace
}  // namespace tfscope_cli

int main(int argc, char** argv) {
  using namespace tfscope_cli;
  CLI::App app{"tfscope: TensorFlow 2.21's tf.function tracing rules, made visible", "tfscope"};
  app.set_version_flag("--version", std::string("tfscope ") + TFSCOPE_VERSION);
  Action action;
  std::string chosen;
  for (AddCommand add : kCommands) add(app, action);
  const std::string commands = command_list(app);
  // CLI11 reads an unknown first word as a stray argument; say what it is instead.
  auto is_command = [&](const char* word) {
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == word) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::fprintf(stderr, "tfscope: error: [cli] unknown command '%s'; the commands are %s\n",
                 argv[1], commands.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "tfscope: error: [cli] %s (see tfscope --help)\n",
                 first_line(e.what()).c_str());
    return 2;
  }
  if (!action) {
    std::fprintf(stderr, "tfscope: error: [cli] a command is required: %s (see tfscope --help)\n",
                 commands.c_str());
    return 2;
  }
  for (const CLI::App* sub : app.get_subcommands()) chosen = sub->get_name();
  try {
    return action();
  } catch (const tfs::Error& e) {
    return fail(chosen, e.python_type(), e.what());
  } catch (const TypedError& e) {
    return fail(chosen, e.type(), e.what());
  } catch (const std::bad_alloc&) {
    return fail(chosen, "", "out of memory");
  } catch (const std::exception& e) {
    return fail(chosen, "", e.what());
  }
}
