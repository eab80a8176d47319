// `tfscope inspect MODEL.tflite`: a model's tensors (type, shape, buffer bytes, quantization
// scales/zero points/axis), operators (builtin, version, inputs, outputs, options), signatures and
// metadata, as text or as a JSON object.
#pragma once

#include <string>

namespace tfs::lite {

// Reads and verifies `path`; throws FormatError with a one-line message on a bad file.
std::string inspect_report(const std::string& path, bool json);

}  // namespace tfs::lite
