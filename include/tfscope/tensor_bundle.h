// TensorBundle: TensorFlow's checkpoint format (`<prefix>.index` + `<prefix>.data-00000-of-00001`),
// the one SavedModels keep their variables in (`variables/variables`). Independent of tfscope's
// Tensor type: a tensor here is a key, a TF DataType number, a shape and its bytes.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace tfs::savedmodel {

// Every error the savedmodel layer raises: one line, "[savedmodel] <file>: <what is wrong>".
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BundleTensor {
  std::string key;
  int dtype = 0;                     // TF DataType enum value (DT_FLOAT = 1, ...)
  std::vector<int64_t> shape;        // empty = scalar
  std::string data;                  // raw little-endian row-major bytes (not for DT_STRING)
  std::vector<std::string> strings;  // DT_STRING elements, row-major (data stays empty)

  bool operator==(const BundleTensor&) const = default;
};

// Bytes per element of a fixed-size dtype; 0 for DT_STRING, DT_RESOURCE, DT_VARIANT and unknown.
size_t dtype_size(int dtype);

// The two files of a single-shard bundle, in memory.
struct BundleFiles {
  std::string index;
  std::string data;
};

// Encodes `tensors` exactly as TF's BundleWriter does: data in the given order, the index sorted
// by key. Throws FormatError on duplicate keys or data whose size does not match dtype and shape.
BundleFiles encode_bundle(const std::vector<BundleTensor>& tensors);

// Writes `<prefix>.index` and `<prefix>.data-00000-of-00001`.
void write_bundle(const std::string& prefix, const std::vector<BundleTensor>& tensors);

// What the index says about one tensor.
struct BundleEntry {
  int dtype = 0;
  std::vector<int64_t> shape;
  int shard_id = 0;
  int64_t offset = 0;
  int64_t size = 0;
  uint32_t crc32c = 0;  // unmasked
};

// Reads a bundle written by TF or by encode_bundle. The index is read and validated on open; a
// tensor's bytes (and their checksum) when it is fetched.
class BundleReader {
 public:
  // `prefix` without ".index", e.g. "<saved_model>/variables/variables".
  explicit BundleReader(const std::string& prefix);
  // From memory; `prefix` only names the files in errors. `shards` holds each data shard.
  BundleReader(const std::string& prefix, std::string index, std::vector<std::string> shards);

  int num_shards() const { return num_shards_; }
  std::vector<std::string> keys() const;
  bool contains(const std::string& key) const { return entries_.count(key) != 0; }
  const BundleEntry& entry(const std::string& key) const;
  BundleTensor get(const std::string& key) const;
  std::vector<BundleTensor> get_all() const;

 private:
  void parse_index(const std::string& index);
  const std::string& shard(int id) const;
  [[noreturn]] void fail(const std::string& file, const std::string& what) const;

  std::string prefix_;
  int num_shards_ = 1;
  std::map<std::string, BundleEntry> entries_;
  mutable std::vector<std::string> shards_;
  mutable std::vector<bool> loaded_;
};

// Reads every tensor of the bundle at `prefix`, sorted by key.
std::vector<BundleTensor> read_bundle(const std::string& prefix);

// TF's data file name for a shard: "<prefix>.data-00000-of-00001".
std::string bundle_data_filename(const std::string& prefix, int shard_id, int num_shards);

}  // namespace tfs::savedmodel
