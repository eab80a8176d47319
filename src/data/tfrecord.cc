// TFRecord reading and writing, and the byte streams (plain, zlib, gzip) under them.
#include "tfscope/tfrecord.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iostream>

#include "tfscope/crc32c.h"
#include "tfscope/errors.h"

namespace tfs::data {
namespace {

constexpr size_t kChunk = 256 * 1024;  // TF's zlib input and output buffer sizes

[[noreturn]] void file_error(const std::string& path) {
  const int err = errno;
  throw Error(err == ENOENT ? ErrorKind::kNotFound : ErrorKind::kFailedPrecondition,
              path + "; " + std::strerror(err));
}

int window_bits(Compression c) {
  return c == Compression::kGzip ? MAX_WBITS + 16 : MAX_WBITS;
}

class FileSource : public ByteSource {
 public:
  explicit FileSource(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
    if (!file_) file_error(path);
  }
  ~FileSource() override { std::fclose(file_); }
  size_t read(char* dst, size_t n) override { return std::fread(dst, 1, n, file_); }

 private:
  std::FILE* file_;
};

class MemorySource : public ByteSource {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t read(char* dst, size_t n) override {
    const size_t k = std::min(n, bytes_.size() - pos_);
    std::memcpy(dst, bytes_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

class InflateSource : public ByteSource {
 public:
  InflateSource(std::unique_ptr<ByteSource> in, Compression c)
      : in_(std::move(in)), buf_(kChunk, '\0') {
    std::memset(&z_, 0, sizeof(z_));
    if (inflateInit2(&z_, window_bits(c)) != Z_OK)
      throw Error(ErrorKind::kInternal, "inflateInit2 failed");
  }
  ~InflateSource() override { inflateEnd(&z_); }

  size_t read(char* dst, size_t n) override {
    size_t done = 0;
    while (done < n && !ended_) {
      if (z_.avail_in == 0 && !in_eof_) {
        z_.avail_in = static_cast<uInt>(in_->read(buf_.data(), buf_.size()));
        z_.next_in = reinterpret_cast<Bytef*>(buf_.data());
        if (z_.avail_in == 0) in_eof_ = true;
      }
      z_.next_out = reinterpret_cast<Bytef*>(dst + done);
      z_.avail_out = static_cast<uInt>(std::min<size_t>(n - done, kChunk));
      const uInt before = z_.avail_out;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      done += before - z_.avail_out;
      if (rc == Z_STREAM_END) {
        // A gzip file may hold several members one after another.
        if (z_.avail_in == 0 && in_eof_) {
          ended_ = true;
        } else if (inflateReset(&z_) != Z_OK) {
          ended_ = true;
        }
      } else if (rc == Z_BUF_ERROR ||
                 (rc == Z_OK && before == z_.avail_out && in_eof_ && z_.avail_in == 0)) {
        if (in_eof_ && z_.avail_in == 0) ended_ = true;  // a stream cut short ends here
      } else if (rc != Z_OK) {
        throw Error(ErrorKind::kDataLoss, "inflate() failed with error " + std::to_string(rc) +
                                              ": " + (z_.msg ? z_.msg : "unknown error"));
      }
    }
    return done;
  }

 private:
  std::unique_ptr<ByteSource> in_;
  std::string buf_;
  z_stream z_;
  bool in_eof_ = false, ended_ = false;
};

uint64_t decode64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

uint32_t decode32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

void encode(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

Compression compression_from_name(const std::string& name) {
  if (name.empty()) return Compression::kNone;
  if (name == "ZLIB") return Compression::kZlib;
  if (name == "GZIP") return Compression::kGzip;
  std::cerr << "Unsupported compression_type:" << name << ". No compression will be used.\n";
  return Compression::kNone;
}

std::unique_ptr<ByteSource> ByteSource::open(const std::string& path, Compression c) {
  auto file = std::make_unique<FileSource>(path);
  if (c == Compression::kNone) return file;
  return std::make_unique<InflateSource>(std::move(file), c);
}

std::unique_ptr<ByteSource> ByteSource::of_bytes(std::string bytes, Compression c) {
  auto mem = std::make_unique<MemorySource>(std::move(bytes));
  if (c == Compression::kNone) return mem;
  return std::make_unique<InflateSource>(std::move(mem), c);
}

TFRecordReader::TFRecordReader(const std::string& path, Compression c)
    : src_(ByteSource::open(path, c)) {}

size_t TFRecordReader::read_up_to(std::string& out, uint64_t n) {
  // Grows with what the file holds, so that a corrupt length asks for no more memory than that.
  out.clear();
  while (out.size() < n) {
    const size_t want = static_cast<size_t>(std::min<uint64_t>(n - out.size(), kChunk));
    const size_t old = out.size();
    out.resize(old + want);
    const size_t got = src_->read(out.data() + old, want);
    out.resize(old + got);
    if (got < want) break;
  }
  return out.size();
}

bool TFRecordReader::read(std::string& record) {
  std::string header;
  if (read_up_to(header, 12) < 12) return false;  // TF: the end of the file
  const uint64_t length = decode64(header.data());
  if (crc32c_unmask(decode32(header.data() + 8)) != crc32c_extend(0, header.data(), 8)) {
    // TF doubts the file only when its first header is wrong.
    throw Error(ErrorKind::kDataLoss, "corrupted record at " + std::to_string(offset_) +
                                          (offset_ == 0 ? " (Is this even a TFRecord file?)" : ""));
  }
  if (length >= UINT64_MAX - 4 || read_up_to(record, length + 4) < length + 4) {
    throw Error(ErrorKind::kDataLoss, "truncated record at " + std::to_string(offset_) +
                                          "' failed with Read less bytes than requested");
  }
  const uint32_t stored = decode32(record.data() + length);
  record.resize(static_cast<size_t>(length));
  if (crc32c_unmask(stored) != crc32c(record)) {
    throw Error(ErrorKind::kDataLoss, "corrupted record at " + std::to_string(offset_ + 12));
  }
  offset_ += 16 + length;
  return true;
}

LineReader::LineReader(const std::string& path, Compression c) : src_(ByteSource::open(path, c)) {}

bool LineReader::fill() {
  if (eof_) return false;
  buf_.erase(0, pos_);
  pos_ = 0;
  const size_t old = buf_.size();
  buf_.resize(old + kChunk);
  const size_t got = src_->read(buf_.data() + old, kChunk);
  buf_.resize(old + got);
  if (got == 0) eof_ = true;
  return got > 0;
}

bool LineReader::read(std::string& line) {
  size_t scanned = pos_;
  while (true) {
    const size_t nl = buf_.find('\n', scanned);
    if (nl != std::string::npos) {
      line.assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      break;
    }
    scanned = buf_.size();
    const size_t start = pos_;
    if (!fill()) {
      if (buf_.size() == pos_) return false;
      line.assign(buf_, pos_, std::string::npos);
      pos_ = buf_.size();
      break;
    }
    scanned -= start;  // fill() moved the unread bytes to the front
  }
  line.erase(std::remove(line.begin(), line.end(), '\r'), line.end());
  return true;
}

std::string tfrecord_encode(std::string_view data) {
  std::string out;
  out.reserve(data.size() + 16);
  encode(out, data.size(), 8);
  encode(out, crc32c_mask(crc32c_extend(0, out.data(), 8)), 4);
  out.append(data);
  encode(out, crc32c_mask(crc32c(data)), 4);
  return out;
}

struct TFRecordWriter::Zlib {
  z_stream z;
  std::string out = std::string(kChunk, '\0');
};

TFRecordWriter::TFRecordWriter(const std::string& path, Compression c)
    : file_(std::fopen(path.c_str(), "wb")) {
  if (!file_) file_error(path);
  if (c != Compression::kNone) {
    z_ = std::make_unique<Zlib>();
    std::memset(&z_->z, 0, sizeof(z_->z));
    // TF's ZlibCompressionOptions: default level and strategy, memory level 9.
    if (deflateInit2(&z_->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window_bits(c), 9,
                     Z_DEFAULT_STRATEGY) != Z_OK) {
      std::fclose(file_);
      throw Error(ErrorKind::kInternal, "deflateInit2 failed");
    }
  }
}

TFRecordWriter::~TFRecordWriter() {
  try {
    close();
  } catch (const Error&) {
  }
}

void TFRecordWriter::put(const char* data, size_t n, int zflush) {
  if (!z_) {
    if (n && std::fwrite(data, 1, n, file_) != n)
      throw Error(ErrorKind::kIO, "TFRecord write failed");
    return;
  }
  z_stream& z = z_->z;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  z.avail_in = static_cast<uInt>(n);
  do {
    z.next_out = reinterpret_cast<Bytef*>(z_->out.data());
    z.avail_out = static_cast<uInt>(z_->out.size());
    deflate(&z, zflush);
    const size_t have = z_->out.size() - z.avail_out;
    if (have && std::fwrite(z_->out.data(), 1, have, file_) != have) {
      throw Error(ErrorKind::kIO, "TFRecord write failed");
    }
  } while (z.avail_out == 0 || z.avail_in > 0);
}

void TFRecordWriter::write(std::string_view record) {
  if (!file_) throw Error(ErrorKind::kFailedPrecondition, "Writer is closed.");
  const std::string bytes = tfrecord_encode(record);
  put(bytes.data(), bytes.size(), Z_NO_FLUSH);
}

void TFRecordWriter::flush() {
  if (!file_) throw Error(ErrorKind::kFailedPrecondition, "Writer is closed.");
  if (z_) put(nullptr, 0, Z_PARTIAL_FLUSH);  // what TF's zlib output buffer flushes with
  std::fflush(file_);
}

void TFRecordWriter::close() {
  if (!file_) return;
  if (z_) {
    put(nullptr, 0, Z_FINISH);
    deflateEnd(&z_->z);
    z_.reset();
  }
  std::fclose(file_);
  file_ = nullptr;
}

}  // namespace tfs::data
