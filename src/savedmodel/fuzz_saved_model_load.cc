// libFuzzer: any bytes as a SavedModel directory's saved_model.pb either load (every signature
// imported into a Graph, functions from the library, ops checked against the registry) or raise
// FormatError. Variables are absent, so a signature that reads one fails with FormatError too.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "tfscope/saved_model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir =
      (std::filesystem::temp_directory_path() / ("tfscope_fuzz_load_" + std::to_string(::getpid())))
          .string();
  static const bool made = std::filesystem::create_directories(dir);
  (void)made;
  {
    std::ofstream out(dir + "/saved_model.pb", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    auto model = tfs::saved_model::load(dir);
    for (const auto& [key, sig] : model->signatures()) {
      volatile size_t n = sig.report().text().size();
      (void)n;
    }
  } catch (const tfs::savedmodel::FormatError&) {
  }
  return 0;
}
