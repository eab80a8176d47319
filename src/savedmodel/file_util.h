// Whole-file reads and atomic whole-file writes, with errors in the savedmodel layer's form.
#pragma once

#include <string>

namespace tfs::savedmodel::detail {

// libprotobuf logs what it rejects ("[libprotobuf ERROR ...] String field ... contains invalid
// UTF-8 data") on stderr before our one-line error says the same; this drops its messages (but
// a fatal one). Called before every parse; installs the handler once.
void silence_protobuf_logs();

// Throws FormatError "[savedmodel] <path>: cannot read (...)".
std::string read_file(const std::string& path);
// Writes beside `path` and renames over it (tfs::detail::replace_file), so readers never see half
// a file; errors are TF's "<path>; <strerror>".
void write_file(const std::string& path, const std::string& contents);

}  // namespace tfs::savedmodel::detail
