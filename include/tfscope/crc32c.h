// CRC-32C (Castagnoli), as TensorFlow and LevelDB checksum checkpoint data, table blocks and
// TFRecord headers and payloads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tfs {

// Continues `crc` (the value returned for the bytes before `data`) over `data`.
uint32_t crc32c_extend(uint32_t crc, const void* data, size_t n);
inline uint32_t crc32c(std::string_view s) {
  return crc32c_extend(0, s.data(), s.size());
}

// Stored checksums are "masked" so that a CRC of data that itself holds CRCs stays well mixed.
inline uint32_t crc32c_mask(uint32_t crc) {
  constexpr uint32_t kMaskDelta = 0xa282ead8u;
  return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}
inline uint32_t crc32c_unmask(uint32_t masked) {
  constexpr uint32_t kMaskDelta = 0xa282ead8u;
  const uint32_t rot = masked - kMaskDelta;
  return (rot >> 17) | (rot << 15);
}

}  // namespace tfs
