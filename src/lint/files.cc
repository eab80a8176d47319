// collect_files: the Python files a lint run checks.
#include <fnmatch.h>
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "tfscope/lint.h"

namespace tfs::lint {
namespace fs = std::filesystem;

namespace {

bool excluded(const fs::path& p, const std::vector<std::string>& exclude) {
  std::string full = p.generic_string();
  for (const std::string& pattern : exclude) {
    if (fnmatch(pattern.c_str(), full.c_str(), 0) == 0) return true;
    for (const fs::path& part : p)
      if (fnmatch(pattern.c_str(), part.generic_string().c_str(), 0) == 0) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> collect_files(const std::vector<std::string>& paths,
                                       const std::vector<std::string>& exclude) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    std::error_code ec;
    fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) throw UsageError("[lint] " + p + ": no such file or directory");
    if (!fs::is_directory(st)) {
      out.push_back(p);  // a file named on the command line is linted whatever its name
      continue;
    }
    std::vector<std::string> found;
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
    if (ec) throw UsageError("[lint] " + p + ": " + ec.message());
    for (; it != end; it.increment(ec)) {
      if (ec) break;
      const fs::path& q = it->path();
      std::string name = q.filename().string();
      bool dir = it->is_directory(ec);
      if ((dir && !name.empty() && name[0] == '.' && name != "." && name != "..") ||
          (dir && name == "__pycache__") || excluded(q, exclude)) {
        if (dir) it.disable_recursion_pending();
        continue;
      }
      if (!dir && q.extension() == ".py" && it->is_regular_file(ec)) found.push_back(q.string());
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

}  // namespace tfs::lint
