// The TFLite model file format (a "TFL3" flatbuffer, schema version 3): a verified reader, a text
// dump for tests and `tfscope inspect`, and small helpers for writers. The table types are
// tflite::Model, tflite::SubGraph, ... generated from src/lite/schema/tflite_schema.fbs.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tfscope/lite/tflite_schema_generated.h"

namespace tfs::lite {

// Every error the lite layer raises: one line, "[lite] <file>: <what is wrong>".
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr uint32_t kSchemaVersion = 3;
inline constexpr const char* kFileIdentifier = "TFL3";

// A model file held in memory, checked on construction: the flatbuffers Verifier (identifier
// "TFL3"), the schema version, and every index a reader would follow (operator codes, tensors,
// buffers, signature tensors, quantization shapes), so code walking model() needs no more checks.
class ModelFile {
 public:
  // `name` names the file in errors.
  ModelFile(std::string bytes, std::string name);
  static ModelFile read(const std::string& path);

  const tflite::Model& model() const { return *model_; }
  const std::string& bytes() const { return *bytes_; }
  const std::string& name() const { return name_; }

 private:
  std::shared_ptr<const std::string> bytes_;  // shared and never moved: model_ points into it
  std::string name_;
  const tflite::Model* model_ = nullptr;
};

// The operator of an OperatorCode: max(builtin_code, deprecated_builtin_code), as TFLite reads it.
tflite::BuiltinOperator builtin_code(const tflite::OperatorCode& code);

// Names as TFLite spells them ("FULLY_CONNECTED", "INT8"), or "UNKNOWN(<n>)".
std::string builtin_operator_name(int code);
std::string tensor_type_name(int type);
// Bytes per element of a fixed-size tensor type; 0 for STRING, RESOURCE, VARIANT and packed types.
size_t tensor_type_size(int type);

// A text report: operator codes, then per subgraph its tensors (dtype, shape, shape signature,
// buffer bytes, quantization scales, zero points and quantized dimension) and operators (builtin
// code, version, inputs, outputs, options), then signatures and metadata.
std::string dump(const ModelFile& file);

// Writer helpers.
// An OperatorCode as TF's converter writes it: deprecated_builtin_code = min(code, 127).
flatbuffers::Offset<tflite::OperatorCode> create_operator_code(flatbuffers::FlatBufferBuilder& fbb,
                                                               tflite::BuiltinOperator code,
                                                               int version = 1);
// Finishes the buffer with the "TFL3" identifier and returns its bytes.
std::string finish_model(flatbuffers::FlatBufferBuilder& fbb,
                         flatbuffers::Offset<tflite::Model> model);
// Writes bytes to `path` atomically (tfs::detail::replace_file: a temporary beside it, renamed over
// it); errors are TF's "<path>; <strerror>" with the errno's class.
void write_model_file(const std::string& path, std::string_view bytes);

}  // namespace tfs::lite
