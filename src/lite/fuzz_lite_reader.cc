// libFuzzer: any bytes either open as a model (and dump without crashing) or raise FormatError.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tfscope/lite_format.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const tfs::lite::ModelFile file(std::string(reinterpret_cast<const char*>(data), size), "fuzz");
    volatile size_t n = tfs::lite::dump(file).size();
    (void)n;
  } catch (const tfs::lite::FormatError&) {
  }
  return 0;
}
