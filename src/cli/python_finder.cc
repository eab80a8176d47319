// Finding the Python with the tfscope package, and running it (python_finder.h).
#include "python_finder.h"

#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

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

// The source tree's .venv (the build's own), when it has the package.
std::string source_venv_python() {
#ifdef TFSCOPE_SOURCE_DIR
  const fs::path p = fs::path(TFSCOPE_SOURCE_DIR) / ".venv" / "bin" / "python";
  if (executable(p) && has_tfscope(p.string())) return p.string();
#endif
  return "";
}

}  // namespace

std::string find_tfscope_python(bool source_venv) {
  if (const char* env = std::getenv("TFSCOPE_PYTHON"); env != nullptr && *env != '\0') {
    if (!executable(env))
      throw std::runtime_error(std::string("TFSCOPE_PYTHON=") + env +
                               " is not an executable Python");
    return env;
  }
  std::string python = wheel_python();
  if (python.empty()) python = path_python();
  if (python.empty() && source_venv) python = source_venv_python();
  if (python.empty())
    throw std::runtime_error(
        "no Python with the tfscope package found (tried python3 and python on PATH); install "
        "the package into the Python that runs your program, or set TFSCOPE_PYTHON");
  return python;
}

int run_python_capture(const std::string& python, const std::vector<std::string>& args,
                       std::string* out) {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[0]);
    ::close(fds[1]);
    std::vector<std::string> argv = {python};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (std::string& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    ::execv(python.c_str(), cargv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0) out->append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace tfscope_cli
