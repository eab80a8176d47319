// `tfscope watch [options] script.py [args...]`: runs `python -m tfscope watch ...` (the watch is
// Python: it patches the program's own TensorFlow), with every argument passed on unchanged.
//
// The Python: $TFSCOPE_PYTHON when set; else, when this binary is the one the wheel carries
// (<prefix>/lib/pythonX.Y/site-packages/tfscope/_bin/tfscope), that prefix's bin/python3; else the
// first python3 or python on PATH that has the tfscope package.
#include <sys/wait.h>
#include <unistd.h>
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.h"

namespace tfscope_cli {
namespace {

namespace fs = std::filesystem;

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// Whether `python` finds the tfscope package (without importing it).
bool has_tfscope(const std::string& python) {
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    std::FILE* null = std::freopen("/dev/null", "w", stdout);
    null = std::freopen("/dev/null", "w", stderr);
    (void)null;
    ::execl(python.c_str(), python.c_str(), "-c",
            "import importlib.util, sys; sys.exit(importlib.util.find_spec('tfscope') is None)",
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The wheel's own Python, when this binary is tfscope/_bin/tfscope inside a site-packages.
std::string wheel_python() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  const fs::path pkg = self.parent_path().parent_path();  // .../site-packages/tfscope
  if (self.parent_path().filename() != "_bin" || pkg.filename() != "tfscope" ||
      pkg.parent_path().filename() != "site-packages")
    return "";
  const fs::path prefix = pkg.parent_path().parent_path().parent_path().parent_path();
  for (const char* name : {"python3", "python"}) {
    const fs::path p = prefix / "bin" / name;
    if (executable(p)) return p.string();
  }
  return "";
}

std::string path_python() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return "";
  for (const char* name : {"python3", "python"}) {
    std::string dirs = path;
    size_t start = 0;
    while (start <= dirs.size()) {
      size_t end = dirs.find(':', start);
      if (end == std::string::npos) end = dirs.size();
      const std::string dir = dirs.substr(start, end - start);
      const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
      if (executable(p) && has_tfscope(p.string())) return p.string();
      start = end + 1;
    }
  }
  return "";
}

int run_watch(const std::vector<std::string>& args) {
  std::string python;
  if (const char* env = std::getenv("TFSCOPE_PYTHON"); env != nullptr && *env != '\0') {
    if (!executable(env))
      throw std::runtime_error(std::string("TFSCOPE_PYTHON=") + env +
                               " is not an executable Python");
    python = env;
  } else {
    python = wheel_python();
    if (python.empty()) python = path_python();
  }
  if (python.empty())
    throw std::runtime_error(
        "no Python with the tfscope package found (tried python3 and python on PATH); install "
        "the package into the Python that runs your program, or set TFSCOPE_PYTHON");
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
