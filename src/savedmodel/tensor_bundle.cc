#include "tfscope/tensor_bundle.h"

#include <cstdio>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "tfscope/crc32c.h"
#include "file_util.h"
#include "sstable.h"
#include "tfscope/proto/tensor_bundle.pb.h"

namespace tfs::savedmodel {
namespace {

using tfs::crc32c_extend;
using detail::TableError;

constexpr int kDtString = 7;
constexpr int kBundleVersion = 1;  // TF's kTensorBundleVersion; readers accept producers >= 0

// Elements in `shape`, or -1 if a dim is negative or the product overflows int64.
int64_t num_elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) return -1;
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) return -1;
    n *= d;
  }
  return n;
}

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

// TF's string tensor layout: varint lengths, the masked crc32c of the lengths (each taken as a
// little-endian uint32, or uint64 when it does not fit), then the bytes. Returns the running crc.
uint32_t encode_strings(const std::vector<std::string>& strings, std::string& out) {
  uint32_t crc = 0;
  for (const std::string& s : strings) {
    const uint64_t len = s.size();
    detail::put_varint64(out, len);
    std::string raw;
    if (len <= 0xffffffffu) {
      detail::put_fixed32(raw, static_cast<uint32_t>(len));
    } else {
      detail::put_fixed64(raw, len);
    }
    crc = crc32c_extend(crc, raw.data(), raw.size());
  }
  std::string masked;
  detail::put_fixed32(masked, tfs::crc32c_mask(crc));
  out.append(masked);
  crc = crc32c_extend(crc, masked.data(), masked.size());
  for (const std::string& s : strings) {
    out.append(s);
    crc = crc32c_extend(crc, s.data(), s.size());
  }
  return crc;
}

}  // namespace

size_t dtype_size(int dtype) {
  switch (dtype) {
    case 1:
      return 4;  // float
    case 2:
      return 8;  // double
    case 3:
      return 4;  // int32
    case 4:
      return 1;  // uint8
    case 5:
      return 2;  // int16
    case 6:
      return 1;  // int8
    case 8:
      return 8;  // complex64
    case 9:
      return 8;  // int64
    case 10:
      return 1;  // bool
    case 11:
      return 1;  // qint8
    case 12:
      return 1;  // quint8
    case 13:
      return 4;  // qint32
    case 14:
      return 2;  // bfloat16
    case 15:
      return 2;  // qint16
    case 16:
      return 2;  // quint16
    case 17:
      return 2;  // uint16
    case 18:
      return 16;  // complex128
    case 19:
      return 2;  // half
    case 22:
      return 4;  // uint32
    case 23:
      return 8;  // uint64
    case 24:
    case 25:
    case 26:
    case 27:
    case 28:  // float8 variants
    case 29:
    case 30:
    case 31:
    case 32:
    case 33:  // int4, uint4, int2, uint2, float4: a byte each
      return 1;
    default:
      return 0;
  }
}

std::string bundle_data_filename(const std::string& prefix, int shard_id, int num_shards) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ".data-%05d-of-%05d", shard_id, num_shards);
  return prefix + buf;
}

BundleFiles encode_bundle(const std::vector<BundleTensor>& tensors) {
  BundleFiles files;
  std::map<std::string, std::string> index;  // key -> serialized BundleEntryProto
  for (const BundleTensor& t : tensors) {
    auto fail = [&](const std::string& what) -> void {
      throw FormatError("[savedmodel] bundle tensor '" + t.key + "': " + what);
    };
    if (t.key.empty()) fail("the empty key is reserved for the bundle header");
    if (index.count(t.key)) fail("duplicate key");
    const int64_t n = num_elements(t.shape);
    if (n < 0) fail("bad shape " + shape_str(t.shape));
    tensorflow::BundleEntryProto entry;
    entry.set_dtype(static_cast<tensorflow::DataType>(t.dtype));
    auto* shape = entry.mutable_shape();
    for (int64_t d : t.shape) shape->add_dim()->set_size(d);
    entry.set_offset(static_cast<int64_t>(files.data.size()));
    uint32_t crc = 0;
    if (t.dtype == kDtString) {
      if (static_cast<int64_t>(t.strings.size()) != n) {
        fail("has " + std::to_string(t.strings.size()) + " strings for shape " +
             shape_str(t.shape));
      }
      crc = encode_strings(t.strings, files.data);
    } else {
      const size_t elem = dtype_size(t.dtype);
      if (elem == 0) fail("unsupported dtype " + std::to_string(t.dtype));
      if (t.data.size() != static_cast<uint64_t>(n) * elem) {
        fail("has " + std::to_string(t.data.size()) + " bytes, shape " + shape_str(t.shape) +
             " needs " + std::to_string(static_cast<uint64_t>(n) * elem));
      }
      files.data.append(t.data);
      crc = tfs::crc32c(t.data);
    }
    entry.set_size(static_cast<int64_t>(files.data.size()) - entry.offset());
    entry.set_crc32c(tfs::crc32c_mask(crc));
    index[t.key] = entry.SerializeAsString();
  }
  tensorflow::BundleHeaderProto header;
  header.set_num_shards(1);
  header.set_endianness(tensorflow::BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(kBundleVersion);
  detail::TableEntries entries;
  entries.emplace_back("", header.SerializeAsString());
  for (auto& [key, value] : index) entries.emplace_back(key, std::move(value));
  files.index = detail::build_table(entries);
  return files;
}

void write_bundle(const std::string& prefix, const std::vector<BundleTensor>& tensors) {
  const BundleFiles files = encode_bundle(tensors);
  detail::write_file(bundle_data_filename(prefix, 0, 1), files.data);
  detail::write_file(prefix + ".index", files.index);
}

BundleReader::BundleReader(const std::string& prefix) : prefix_(prefix) {
  parse_index(detail::read_file(prefix + ".index"));
  shards_.resize(num_shards_);
  loaded_.assign(num_shards_, false);
}

BundleReader::BundleReader(const std::string& prefix, std::string index,
                           std::vector<std::string> shards)
    : prefix_(prefix) {
  parse_index(index);
  if (static_cast<int>(shards.size()) != num_shards_) {
    fail(prefix_ + ".index", "header says " + std::to_string(num_shards_) + " shards, given " +
                                 std::to_string(shards.size()));
  }
  shards_ = std::move(shards);
  loaded_.assign(num_shards_, true);
}

void BundleReader::fail(const std::string& file, const std::string& what) const {
  throw FormatError("[savedmodel] " + file + ": " + what);
}

void BundleReader::parse_index(const std::string& index) {
  const std::string file = prefix_ + ".index";
  detail::TableEntries table;
  try {
    table = detail::read_table(index);
  } catch (const TableError& e) {
    fail(file, e.what());
  }
  if (table.empty() || !table.front().first.empty()) fail(file, "no bundle header (empty key)");
  tensorflow::BundleHeaderProto header;
  detail::silence_protobuf_logs();
  if (!header.ParseFromString(table.front().second)) fail(file, "corrupt bundle header");
  if (header.num_shards() < 1 || header.num_shards() > 100000) {
    fail(file, "bad shard count " + std::to_string(header.num_shards()));
  }
  if (header.endianness() != tensorflow::BundleHeaderProto::LITTLE) {
    fail(file, "big-endian bundles are unsupported");
  }
  const auto& v = header.version();
  if (v.producer() < 0 || v.min_consumer() > kBundleVersion) {
    fail(file, "unsupported bundle version (producer " + std::to_string(v.producer()) +
                   ", min_consumer " + std::to_string(v.min_consumer()) + ")");
  }
  for (int bad : v.bad_consumers()) {
    if (bad == kBundleVersion) fail(file, "bundle version excludes this reader");
  }
  num_shards_ = header.num_shards();
  for (size_t i = 1; i < table.size(); ++i) {
    const std::string& key = table[i].first;
    tensorflow::BundleEntryProto proto;
    if (!proto.ParseFromString(table[i].second)) fail(file, "corrupt entry for '" + key + "'");
    if (proto.slices_size() > 0) fail(file, "'" + key + "' is a partitioned tensor (unsupported)");
    BundleEntry e;
    e.dtype = proto.dtype();
    if (proto.shape().unknown_rank()) fail(file, "'" + key + "' has an unknown rank");
    for (const auto& d : proto.shape().dim()) e.shape.push_back(d.size());
    e.shard_id = proto.shard_id();
    e.offset = proto.offset();
    e.size = proto.size();
    e.crc32c = tfs::crc32c_unmask(proto.crc32c());
    const int64_t n = num_elements(e.shape);
    if (n < 0) fail(file, "'" + key + "' has a bad shape " + shape_str(e.shape));
    if (e.shard_id < 0 || e.shard_id >= num_shards_) {
      fail(file, "'" + key + "' names shard " + std::to_string(e.shard_id) + " of " +
                     std::to_string(num_shards_));
    }
    if (e.offset < 0 || e.size < 0) fail(file, "'" + key + "' has a negative offset or size");
    if (e.dtype != kDtString) {
      const size_t elem = dtype_size(e.dtype);
      if (elem == 0) fail(file, "'" + key + "' has unsupported dtype " + std::to_string(e.dtype));
      if (static_cast<uint64_t>(n) > static_cast<uint64_t>(e.size) / elem ||
          static_cast<uint64_t>(n) * elem != static_cast<uint64_t>(e.size)) {
        fail(file, "'" + key + "' has size " + std::to_string(e.size) + ", shape " +
                       shape_str(e.shape) + " needs " + std::to_string(n) + " x " +
                       std::to_string(elem) + " bytes");
      }
    }
    entries_.emplace(key, std::move(e));
  }
}

std::vector<std::string> BundleReader::keys() const {
  std::vector<std::string> out;
  for (const auto& kv : entries_) out.push_back(kv.first);
  return out;
}

const BundleEntry& BundleReader::entry(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) fail(prefix_ + ".index", "no tensor named '" + key + "'");
  return it->second;
}

const std::string& BundleReader::shard(int id) const {
  if (!loaded_[id]) {
    shards_[id] = detail::read_file(bundle_data_filename(prefix_, id, num_shards_));
    loaded_[id] = true;
  }
  return shards_[id];
}

BundleTensor BundleReader::get(const std::string& key) const {
  const BundleEntry& e = entry(key);
  const std::string file = bundle_data_filename(prefix_, e.shard_id, num_shards_);
  const std::string& data = shard(e.shard_id);
  if (static_cast<uint64_t>(e.offset) > data.size() ||
      static_cast<uint64_t>(e.size) > data.size() - e.offset) {
    fail(file, "tensor '" + key + "' (offset " + std::to_string(e.offset) + ", size " +
                   std::to_string(e.size) + ") runs past the end of the file (" +
                   std::to_string(data.size()) + " bytes)");
  }
  const std::string_view bytes(data.data() + e.offset, e.size);
  BundleTensor t;
  t.key = key;
  t.dtype = e.dtype;
  t.shape = e.shape;
  uint32_t crc = 0;
  if (e.dtype == kDtString) {
    const int64_t n = num_elements(e.shape);
    size_t pos = 0;
    std::vector<uint64_t> lens;
    try {
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t len = detail::get_varint64(bytes, pos, "string length:");
        std::string raw;
        if (len <= 0xffffffffu) {
          detail::put_fixed32(raw, static_cast<uint32_t>(len));
        } else {
          detail::put_fixed64(raw, len);
        }
        crc = crc32c_extend(crc, raw.data(), raw.size());
        lens.push_back(len);
      }
    } catch (const TableError& err) {
      fail(file, "tensor '" + key + "': " + err.what());
    }
    if (bytes.size() - pos < 4) fail(file, "tensor '" + key + "': truncated string data");
    if (tfs::crc32c_unmask(detail::get_fixed32(bytes, pos)) != crc) {
      fail(file, "tensor '" + key + "': string length checksum mismatch");
    }
    crc = crc32c_extend(crc, bytes.data() + pos, 4);
    pos += 4;
    for (uint64_t len : lens) {
      if (len > bytes.size() - pos) fail(file, "tensor '" + key + "': truncated string data");
      t.strings.emplace_back(bytes.substr(pos, len));
      crc = crc32c_extend(crc, bytes.data() + pos, len);
      pos += len;
    }
    if (pos != bytes.size()) fail(file, "tensor '" + key + "': string data has trailing bytes");
  } else {
    t.data.assign(bytes);
    crc = tfs::crc32c(bytes);
  }
  if (crc != e.crc32c) fail(file, "checksum mismatch for tensor '" + key + "'");
  return t;
}

std::vector<BundleTensor> BundleReader::get_all() const {
  std::vector<BundleTensor> out;
  for (const auto& kv : entries_) out.push_back(get(kv.first));
  return out;
}

std::vector<BundleTensor> read_bundle(const std::string& prefix) {
  return BundleReader(prefix).get_all();
}

}  // namespace tfs::savedmodel
