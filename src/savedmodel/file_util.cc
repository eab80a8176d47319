#include "file_util.h"

#include <google/protobuf/stubs/logging.h>

#include <cerrno>
#include <cstdio>
#include <mutex>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfscope/detail/file_write.h"
#include "tfscope/tensor_bundle.h"

namespace tfs::savedmodel::detail {

void silence_protobuf_logs() {
  static std::once_flag once;
  std::call_once(once, [] {
    google::protobuf::SetLogHandler(
        [](google::protobuf::LogLevel level, const char*, int, const std::string& message) {
          if (level == google::protobuf::LOGLEVEL_FATAL)
            std::fprintf(stderr, "%s\n", message.c_str());
        });
  });
}

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
  tfs::detail::replace_file(path, contents);
}

}  // namespace tfs::savedmodel::detail
