// Reading and writing the protobuf files of a SavedModel directory (saved_model.pb,
// fingerprint.pb) with tfscope's own copies of TF's .proto files (package tensorflow, so the
// generated types are tensorflow::SavedModel, tensorflow::MetaGraphDef, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tfscope/proto/fingerprint.pb.h"
#include "tfscope/proto/saved_model.pb.h"
#include "tfscope/tensor_bundle.h"  // FormatError

namespace tfs {
struct GraphFunction;
}

namespace tfs::savedmodel {

inline constexpr const char* kSavedModelFilename = "saved_model.pb";
inline constexpr const char* kFingerprintFilename = "fingerprint.pb";
inline constexpr const char* kVariablesDirectory = "variables";
inline constexpr const char* kVariablesFilename = "variables";
inline constexpr const char* kTagServe = "serve";
inline constexpr const char* kDefaultSignatureKey = "serving_default";
inline constexpr const char* kPredictMethodName = "tensorflow/serving/predict";

// Serializes byte for byte as TF 2.21 writes saved_model.pb (Python protobuf, deterministic):
// fields by number, map entries in upb's order (see src/savedmodel/tf_serialize.h).
std::string serialize_as_tf(const google::protobuf::Message& message);

// Parses saved_model.pb bytes; `name` names the file in errors.
tensorflow::SavedModel parse_saved_model(std::string_view bytes, const std::string& name);

// Reads `<dir>/saved_model.pb`. Throws FormatError ("[savedmodel] <file>: ...") if the directory
// holds no saved_model.pb, the file cannot be parsed or has no MetaGraphDef.
tensorflow::SavedModel read_saved_model(const std::string& dir);

// Writes `<dir>/saved_model.pb` (creating `dir`), atomically per file.
void write_saved_model(const std::string& dir, const tensorflow::SavedModel& model);

// `<dir>/fingerprint.pb` if present; throws on a present but unparsable file.
std::optional<tensorflow::FingerprintDef> read_fingerprint(const std::string& dir);

// The FunctionDef TF would write for a library function: argument names in its signature,
// nodes named as in the graph with inputs as "node:arg:index" / "arg" / "^node". (Defined in
// tfscope_savedmodel, with the graph conversion.)
tensorflow::FunctionDef function_def(const GraphFunction& fn);

// `<dir>/variables/variables`: the bundle prefix of a SavedModel's variables.
std::string variables_prefix(const std::string& dir);

// A short text summary: meta graphs, tags, signatures with their inputs and outputs, function
// and object-graph counts. For `tfscope inspect` and tests.
std::string describe_saved_model(const tensorflow::SavedModel& model);

}  // namespace tfs::savedmodel
