// libFuzzer: any bytes, split into an index file and a data file, either read as a bundle or
// raise FormatError. The first two bytes give the index length.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tfscope/tensor_bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t index_len = std::min<size_t>(size - 2, (size_t{data[0]} << 8) | data[1]);
  std::string index(reinterpret_cast<const char*>(data) + 2, index_len);
  std::string shard(reinterpret_cast<const char*>(data) + 2 + index_len, size - 2 - index_len);
  try {
    tfs::savedmodel::BundleReader reader("fuzz", std::move(index), {std::move(shard)});
    for (const auto& key : reader.keys()) {
      try {
        reader.get(key);
      } catch (const tfs::savedmodel::FormatError&) {
      }
    }
  } catch (const tfs::savedmodel::FormatError&) {
  }
  return 0;
}
