// libFuzzer: any bytes either parse as saved_model.pb (and describe without crashing) or raise
// FormatError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfscope/saved_model_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const tensorflow::SavedModel model = tfs::savedmodel::parse_saved_model(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    volatile size_t n = tfs::savedmodel::describe_saved_model(model).size();
    (void)n;
    volatile size_t m = tfs::savedmodel::serialize_as_tf(model).size();
    (void)m;
  } catch (const tfs::savedmodel::FormatError&) {
  }
  return 0;
}
