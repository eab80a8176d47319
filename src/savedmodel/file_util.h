// Whole-file reads and atomic whole-file writes, with errors in the savedmodel layer's form.
#pragma once

#include <string>

namespace tfs::savedmodel::detail {

// Throws FormatError "[savedmodel] <path>: cannot read (...)".
std::string read_file(const std::string& path);
// Writes beside `path` and renames over it (tfs::detail::replace_file), so readers never see half
// a file; errors are TF's "<path>; <strerror>".
void write_file(const std::string& path, const std::string& contents);

}  // namespace tfs::savedmodel::detail
