#include "tfscope/detail/file_write.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "tfscope/errors.h"

namespace tfs::detail {
namespace {

// tsl::errors' errno -> status code mapping (tensorflow/tsl/platform/errors.cc), for the errnos
// a file write can meet.
ErrorKind kind_of_errno(int err) {
  switch (err) {
    case EINVAL:
    case ENAMETOOLONG:
      return ErrorKind::kInvalidArgument;
    case ENOENT:
    case ENODEV:
    case ENXIO:
      return ErrorKind::kNotFound;
    case EEXIST:
      return ErrorKind::kAlreadyExists;
    case EPERM:
    case EACCES:
    case EROFS:
      return ErrorKind::kPermissionDenied;
    case ENOTEMPTY:
    case ENOTDIR:
    case EISDIR:
    case EBUSY:
    case ETXTBSY:
      return ErrorKind::kFailedPrecondition;
    case ENOSPC:
    case EDQUOT:
    case EMFILE:
    case EMLINK:
    case ENFILE:
    case ENOMEM:
      return ErrorKind::kResourceExhausted;
    case EFBIG:
    case EOVERFLOW:
    case ERANGE:
      return ErrorKind::kOutOfRange;
    case EXDEV:
    case ENOSYS:
    case ENOTSUP:
      return ErrorKind::kUnimplemented;
    default:
      return ErrorKind::kUnknown;
  }
}

}  // namespace

void throw_file_error(const std::string& path, int err) {
  throw Error(kind_of_errno(err), path + "; " + std::strerror(err));
}

void write_whole_file(const std::string& file, std::string_view bytes, const std::string& shown) {
  if (file.empty()) throw Error(ErrorKind::kInvalidArgument, "an empty path is not a file name");
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw_file_error(shown, errno);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      throw_file_error(shown, err);
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) throw_file_error(shown, errno);  // NFS and quotas report late
}

std::string temporary_beside(const std::string& path) {
  static std::atomic<int> counter{0};
  const std::filesystem::path p(path);
  const std::string tag = std::to_string(::getpid()) + "-" + std::to_string(counter++);
  return (p.parent_path() / ("." + p.filename().string() + ".tmp-" + tag)).string();
}

void replace_file(const std::string& path, std::string_view bytes) {
  if (path.empty()) throw Error(ErrorKind::kInvalidArgument, "an empty path is not a file name");
  const std::string tmp = temporary_beside(path);
  try {
    write_whole_file(tmp, bytes, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw_file_error(path, err);
  }
}

}  // namespace tfs::detail
