// libFuzzer: any bytes either fail to open as a model, or the interpreter refuses the model with
// FormatError, or it runs on an input of the declared shape (capped in size).
#include <cstddef>
#include <cstdint>
#include <string>

#include "tfscope/lite.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    tfs::lite::Interpreter interp(
        tfs::lite::ModelFile(std::string(reinterpret_cast<const char*>(data), size), "fuzz"),
        size % 2 ? tfs::lite::Kernels::kFast : tfs::lite::Kernels::kReference);
    std::vector<tfs::lite::Interpreter::TensorValue> inputs;
    for (int i = 0; i < interp.num_inputs(); ++i) {
      tfs::lite::Interpreter::TensorValue v;
      v.shape = interp.input_shape(i);
      int64_t n = 1;
      for (int d : v.shape) {
        if (d < 0 || d > 4096) return 0;
        n *= d;
      }
      if (n > 65536) return 0;
      v.data.assign(static_cast<size_t>(n), 0.25f);
      inputs.push_back(std::move(v));
    }
    interp.run(inputs);
  } catch (const tfs::lite::FormatError&) {
  }
  return 0;
}
