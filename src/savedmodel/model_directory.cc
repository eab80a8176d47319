#include "model_directory.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <filesystem>
#include <set>

#include "tfscope/detail/file_write.h"
#include "tfscope/errors.h"

namespace tfs::savedmodel::detail {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void not_a_directory(const fs::path& p) {
  throw Error(ErrorKind::kFailedPrecondition, p.string() + " is not a directory");
}

// TF's check before it writes: the path, or the first of its parents that exists, must be a
// directory ("x/f/sub" with x/f a file: "x/f is not a directory").
void check_directory_path(const fs::path& dir) {
  for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (st.type() == fs::file_type::not_found) {
      if (p == p.parent_path()) return;
      continue;
    }
    if (ec) tfs::detail::throw_file_error(p.string(), ec.value());
    if (!fs::is_directory(st)) not_a_directory(p);
    return;
  }
}

void make_directories(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) tfs::detail::throw_file_error(dir.string(), ec.value());
}

// A staging folder inside `dir`: renames from it stay on one file system.
class Staging {
 public:
  explicit Staging(const fs::path& dir) {
    static std::atomic<int> counter{0};
    path_ = dir / (".tfscope-save-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::error_code ec;
    fs::create_directory(path_, ec);
    if (ec) tfs::detail::throw_file_error(dir.string(), ec.value());
  }
  ~Staging() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string staged_name(const std::string& rel) {
  std::string s = rel;
  for (char& c : s)
    if (c == '/') c = '_';
  return s;
}

}  // namespace

void write_model_directory(const std::string& dir_arg, const std::vector<ModelFile>& files,
                           const std::vector<std::string>& stale) {
  // TF writes tf.saved_model.save(m, "") into the working directory.
  const fs::path dir = dir_arg.empty() ? fs::path(".") : fs::path(dir_arg);
  check_directory_path(dir);
  make_directories(dir);
  Staging staging(dir);
  for (const auto& [rel, bytes] : files) {
    tfs::detail::write_whole_file((staging.path() / staged_name(rel)).string(), bytes,
                                  (dir / rel).string());
  }
  // Every file is written: now the folders they go to, then the renames.
  std::set<fs::path> folders;
  for (const auto& [rel, bytes] : files) {
    const fs::path parent = fs::path(rel).parent_path();
    if (!parent.empty()) folders.insert(dir / parent);
  }
  for (const fs::path& f : folders) {
    check_directory_path(f);
    make_directories(f);
  }
  for (const auto& [rel, bytes] : files) {
    std::error_code ec;
    if (fs::is_directory(dir / rel, ec))
      tfs::detail::throw_file_error((dir / rel).string(), EISDIR);
  }
  for (const auto& [rel, bytes] : files) {
    const fs::path target = dir / rel;
    if (::rename((staging.path() / staged_name(rel)).c_str(), target.c_str()) != 0)
      tfs::detail::throw_file_error(target.string(), errno);
  }
  for (const std::string& rel : stale) {
    std::error_code ec;
    if (fs::is_regular_file(dir / rel, ec)) fs::remove(dir / rel, ec);
  }
}

}  // namespace tfs::savedmodel::detail
