// Writing files so that a failure never costs data: a file is written beside its destination and
// renamed over it, and every error names the file the caller asked for (never a temporary) and
// says why, as TF's file system does: "<path>; <strerror>", with TF's error class for the errno.
#pragma once

#include <string>
#include <string_view>

namespace tfs::detail {

// Throws tfs::Error "<path>; <strerror(err)>" of the class TF's errno mapping gives (ENOSPC:
// ResourceExhausted, EACCES/EPERM/EROFS: PermissionDenied, EFBIG: OutOfRange, ENOENT: NotFound,
// ENOTDIR/EISDIR: FailedPrecondition, ...).
[[noreturn]] void throw_file_error(const std::string& path, int err);

// Writes `bytes` to `file` (created or truncated); errors name `shown`.
void write_whole_file(const std::string& file, std::string_view bytes, const std::string& shown);

// A name for a temporary beside `path` (same directory, hidden, unique in this process).
std::string temporary_beside(const std::string& path);

// Writes `bytes` to a temporary beside `path`, then renames it over `path`: readers see the old
// file or the new one. On failure the temporary is removed and `path` is untouched.
void replace_file(const std::string& path, std::string_view bytes);

}  // namespace tfs::detail
