// TFRecord files as TensorFlow writes and reads them (tf.io.TFRecordWriter, TFRecordDataset):
// each record is its length (uint64, little-endian), the masked CRC-32C of those 8 bytes, the
// data, and the masked CRC-32C of the data; the whole file optionally deflated as a zlib or
// gzip stream ("ZLIB", "GZIP"). Lines of text files (TextLineDataset) read through the same
// byte streams.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace tfs::data {

// "", "ZLIB" or "GZIP"; any other name is "" with TF's logged complaint (TF reads such files
// uncompressed).
enum class Compression { kNone, kZlib, kGzip };
Compression compression_from_name(const std::string& name);

// The bytes of a file, inflated when compressed. Errors: NotFound ("<path>; No such file or
// directory"), DataLoss for a stream zlib rejects ("inflate() failed with error -3: incorrect
// header check").
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to n bytes into dst; fewer only at the end of the stream.
  virtual size_t read(char* dst, size_t n) = 0;
  static std::unique_ptr<ByteSource> open(const std::string& path, Compression c);
  // The same over bytes in memory (the fuzz target's input).
  static std::unique_ptr<ByteSource> of_bytes(std::string bytes, Compression c);
};

class TFRecordReader {
 public:
  TFRecordReader(const std::string& path, Compression c);
  explicit TFRecordReader(std::unique_ptr<ByteSource> src) : src_(std::move(src)) {}
  // The next record into `record`; false at the end of the file (also after a header cut
  // short, as TF ends there). DataLoss for a corrupt or truncated record, with TF's text.
  bool read(std::string& record);
  uint64_t offset() const { return offset_; }  // where the next record starts

 private:
  size_t read_up_to(std::string& out, uint64_t n);
  std::unique_ptr<ByteSource> src_;
  uint64_t offset_ = 0;
};

// Lines of a text file without their "\n" (nor the "\r"s TF drops).
class LineReader {
 public:
  LineReader(const std::string& path, Compression c);
  bool read(std::string& line);

 private:
  bool fill();
  std::unique_ptr<ByteSource> src_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
};

// One record in the file format (no compression): header, data, checksums.
std::string tfrecord_encode(std::string_view data);

class TFRecordWriter {
 public:
  // NotFound ("<path>; No such file or directory") when the file cannot be made.
  TFRecordWriter(const std::string& path, Compression c);
  ~TFRecordWriter();
  TFRecordWriter(const TFRecordWriter&) = delete;
  TFRecordWriter& operator=(const TFRecordWriter&) = delete;

  // FailedPrecondition "Writer is closed." after close().
  void write(std::string_view record);
  void flush();
  void close();

 private:
  void put(const char* data, size_t n, int zflush);
  struct Zlib;
  std::FILE* file_ = nullptr;
  std::unique_ptr<Zlib> z_;
};

}  // namespace tfs::data
