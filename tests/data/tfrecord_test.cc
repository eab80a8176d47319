// TFRecord files against the bytes TF 2.21 writes and the texts it raises (recorded from
// tf.io.TFRecordWriter and tf.data.TFRecordDataset; zlib output from Debian's zlib 1.2.13, the
// version TF's writer matched byte for byte when recorded).
#include "tfscope/tfrecord.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tfscope/crc32c.h"
#include "tfscope/errors.h"

namespace tfs::data {
namespace {

std::string unhex(const std::string& h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("tfscope_tfrecord_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void spit(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
}

std::vector<std::string> read_all(const std::string& path, Compression c = Compression::kNone) {
  TFRecordReader r(path, c);
  std::vector<std::string> out;
  std::string rec;
  while (r.read(rec)) out.push_back(rec);
  return out;
}

std::string read_error(const std::string& bytes) {
  const std::string p = temp_path("corrupt");
  spit(p, bytes);
  try {
    read_all(p);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDataLoss);
    return e.what();
  }
  return "no error";
}

TEST(TFRecord, RecordBytesAreTFs) {
  EXPECT_EQ(tfrecord_encode("hello"), unhex("0500000000000000eab2043e68656c6c6fbb1f1c19"));
}

std::string three() {
  return tfrecord_encode("hello") + tfrecord_encode("") + tfrecord_encode(std::string(300, 'x'));
}

TEST(TFRecord, WriterWritesWhatTheReaderReads) {
  const std::string p = temp_path("plain");
  {
    TFRecordWriter w(p, Compression::kNone);
    w.write("hello");
    w.write("");
    w.write(std::string(300, 'x'));
  }
  EXPECT_EQ(slurp(p).size(), 353u);  // TF's file of these records is 353 bytes
  EXPECT_EQ(slurp(p), three());
  EXPECT_EQ(read_all(p), (std::vector<std::string>{"hello", "", std::string(300, 'x')}));
}

TEST(TFRecord, CompressedBytesAreTFs) {
  const std::string g = temp_path("gz"), z = temp_path("zl"), f = temp_path("flush");
  {
    TFRecordWriter w(g, Compression::kGzip);
    w.write("abc");
  }
  EXPECT_EQ(slurp(g),
            unhex("1f8b0800000000000003636680800d333df9129392f3c23f2a020032a97b3913000000"));
  {
    TFRecordWriter w(z, Compression::kZlib);
    w.write("abc");
    std::string def;
    for (int i = 0; i < 100; ++i) def += "def";
    w.write(def);
  }
  EXPECT_EQ(slurp(z), unhex("789c636680800d333df9129392f3c23f2aea3042843efd8b9e9b929a368a884437dd3e"
                            "dd0200ffb780fd"));
  EXPECT_EQ(read_all(z, Compression::kZlib).size(), 2u);
  {
    // TF flushes its zlib stream with Z_PARTIAL_FLUSH.
    TFRecordWriter w(f, Compression::kGzip);
    w.write("abc");
    w.flush();
    w.write("abc");
  }
  EXPECT_EQ(slurp(f),
            unhex("1f8b0800000000000003626680800d333df9129392f3c23f2a02041833a61000d5357a8e"
                  "26000000"));
  EXPECT_EQ(read_all(f, Compression::kGzip), (std::vector<std::string>{"abc", "abc"}));
}

TEST(TFRecord, CorruptRecordsRaiseTFsTexts) {
  const std::string d = three();
  EXPECT_EQ(read_error(d.substr(0, 14)),
            "truncated record at 0' failed with Read less bytes than requested");
  EXPECT_EQ(read_error(d.substr(0, 19)),
            "truncated record at 0' failed with Read less bytes than requested");
  std::string bad = d;
  bad[8] ^= 1;
  EXPECT_EQ(read_error(bad), "corrupted record at 0 (Is this even a TFRecord file?)");
  bad = d;
  bad[12] = 'H';
  EXPECT_EQ(read_error(bad), "corrupted record at 12");
  bad = d;
  bad[17] ^= 1;
  EXPECT_EQ(read_error(bad), "corrupted record at 12");
  bad = d;
  bad[21 + 8] ^= 1;  // the second record's header checksum
  EXPECT_EQ(read_error(bad), "corrupted record at 21");
  EXPECT_EQ(read_error(d.substr(0, 37 + 12 + 3)),
            "truncated record at 37' failed with Read less bytes than requested");
}

TEST(TFRecord, AHeaderCutShortEndsTheFileQuietly) {
  const std::string d = three();
  for (size_t n : {0, 5, 10, 21 + 3}) {
    const std::string p = temp_path("short");
    spit(p, d.substr(0, n));
    EXPECT_EQ(read_all(p).size(), n > 21 ? 1u : 0u) << n;
  }
}

TEST(TFRecord, AHugeLengthAsksForNoMoreThanTheFileHolds) {
  // A length of 2^40 under a valid header checksum: the reader takes what the file holds and
  // reports the truncation, without asking for 2^40 bytes.
  std::string header(8, '\0');
  header[5] = '\x01';
  const uint32_t crc = crc32c_mask(crc32c(header));
  for (int i = 0; i < 4; ++i) header.push_back(static_cast<char>((crc >> (8 * i)) & 0xff));
  EXPECT_EQ(read_error(header + "abc"),
            "truncated record at 0' failed with Read less bytes than requested");
  // The same length under a wrong checksum is TF's corrupted header.
  header[8] ^= 1;
  EXPECT_EQ(read_error(header + "abc"), "corrupted record at 0 (Is this even a TFRecord file?)");
}

TEST(TFRecord, MissingFilesAndClosedWriters) {
  try {
    TFRecordReader r("/nonexistent_dir_tfscope/x", Compression::kNone);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kNotFound);
    EXPECT_EQ(std::string(e.what()), "/nonexistent_dir_tfscope/x; No such file or directory");
  }
  const std::string p = temp_path("closed");
  TFRecordWriter w(p, Compression::kNone);
  w.close();
  try {
    w.write("x");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kFailedPrecondition);
    EXPECT_EQ(std::string(e.what()), "Writer is closed.");
  }
}

TEST(TFRecord, GzipOfPlainBytesIsTFsInflateError) {
  const std::string p = temp_path("notgz");
  spit(p, three());
  try {
    read_all(p, Compression::kGzip);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDataLoss);
    EXPECT_EQ(std::string(e.what()), "inflate() failed with error -3: incorrect header check");
  }
}

TEST(TextLines, LinesAsTFReadsThem) {
  const std::string p = temp_path("lines");
  spit(p, "a\r\nbb\n\n c \r\r\nlast");
  LineReader r(p, Compression::kNone);
  std::vector<std::string> lines;
  std::string line;
  while (r.read(line)) lines.push_back(line);
  EXPECT_EQ(lines, (std::vector<std::string>{"a", "bb", "", " c ", "last"}));
}

}  // namespace
}  // namespace tfs::data
