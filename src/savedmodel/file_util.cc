#include "file_util.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfscope/tensor_bundle.h"

namespace tfs::savedmodel::detail {

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FormatError("[savedmodel] " + path + ": is a directory, expected a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw FormatError("[savedmodel] " + path + ": cannot open (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw FormatError("[savedmodel] " + path + ": read error");
  return std::move(ss).str();
}

void write_file(const std::string& path, const std::string& contents) {
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) {
      throw FormatError("[savedmodel] " + path + ": cannot create (" + std::strerror(errno) + ")");
    }
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      throw FormatError("[savedmodel] " + path + ": write failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw FormatError("[savedmodel] " + path + ": cannot rename into place (" + ec.message() + ")");
  }
}

}  // namespace tfs::savedmodel::detail
