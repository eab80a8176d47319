// Writing a SavedModel's files into its directory as TF 2.21's tf.saved_model.save does: into the
// directory, which may already exist and hold other files (they stay), replacing only the model's
// own files. Unlike TF, a failed write leaves the previous model whole: every file is written to
// a staging folder inside the directory first and renamed into place only when all are written.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tfs::savedmodel::detail {

// A file of the model: its path relative to the model directory ("saved_model.pb",
// "variables/variables.index") and its bytes.
using ModelFile = std::pair<std::string, std::string>;

// Errors are TF's: "<dir> is not a directory" (FailedPrecondition) when `dir` or the first of its
// parents that exists is not a directory; "<path>; <strerror>" with TF's class for the errno when
// a directory cannot be made or a file cannot be written (the path is the file's final one).
// `stale` lists files of an earlier model that this model does not have (removed on success).
void write_model_directory(const std::string& dir, const std::vector<ModelFile>& files,
                           const std::vector<std::string>& stale);

}  // namespace tfs::savedmodel::detail
