// Whole-file reads and atomic whole-file writes, with errors in the savedmodel layer's form.
#pragma once

#include <string>

namespace tfs::savedmodel::detail {

// Throws FormatError "[savedmodel] <path>: cannot read (...)".
std::string read_file(const std::string& path);
// Writes to "<path>.tmp-<pid>" and renames it over `path`, so readers never see half a file.
void write_file(const std::string& path, const std::string& contents);

}  // namespace tfs::savedmodel::detail
