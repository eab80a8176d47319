// libFuzzer entry point: TFRecord reading (plain, zlib, gzip) and Example parsing on arbitrary
// bytes. The first byte picks the compression; every record read is also parsed as an Example.
// Errors are the reader's business (DataLoss, InvalidArgument); anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tfscope/errors.h"
#include "tfscope/example.h"
#include "tfscope/tfrecord.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using tfs::data::Compression;
  const Compression c = data[0] % 3 == 0   ? Compression::kNone
                        : data[0] % 3 == 1 ? Compression::kZlib
                                           : Compression::kGzip;
  tfs::data::TFRecordReader reader(tfs::data::ByteSource::of_bytes(
      std::string(reinterpret_cast<const char*>(data) + 1, size - 1), c));
  try {
    std::string record;
    for (int i = 0; i < 1000 && reader.read(record); ++i) {
      try {
        tfs::data::parse_example_proto(record);
      } catch (const tfs::Error&) {
      }
    }
  } catch (const tfs::Error&) {
  }
  return 0;
}
