#include "sstable.h"

#include <algorithm>
#include <cstring>

#include "tfscope/crc32c.h"

namespace tfs::savedmodel::detail {
namespace {

constexpr uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr size_t kFooterSize = 48;       // two padded block handles + magic
constexpr size_t kBlockTrailerSize = 5;  // compression type byte + masked crc32c
constexpr unsigned char kNoCompression = 0;

struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;
};

void put_handle(std::string& out, const BlockHandle& h) {
  put_varint64(out, h.offset);
  put_varint64(out, h.size);
}

BlockHandle get_handle(std::string_view in, size_t& pos, const char* what) {
  BlockHandle h;
  h.offset = get_varint64(in, pos, what);
  h.size = get_varint64(in, pos, what);
  return h;
}

// Accumulates prefix-compressed entries of one block (LevelDB's block layout).
class BlockBuilder {
 public:
  explicit BlockBuilder(int restart_interval) : restart_interval_(restart_interval) {
    restarts_.push_back(0);
  }
  void add(std::string_view key, std::string_view value) {
    size_t shared = 0;
    if (counter_ < restart_interval_) {
      const size_t n = std::min(last_key_.size(), key.size());
      while (shared < n && last_key_[shared] == key[shared]) ++shared;
    } else {
      restarts_.push_back(static_cast<uint32_t>(buffer_.size()));
      counter_ = 0;
    }
    put_varint64(buffer_, shared);
    put_varint64(buffer_, key.size() - shared);
    put_varint64(buffer_, value.size());
    buffer_.append(key.substr(shared));
    buffer_.append(value);
    last_key_.assign(key);
    ++counter_;
  }
  size_t size_estimate() const { return buffer_.size() + restarts_.size() * 4 + 4; }
  bool empty() const { return buffer_.empty(); }
  std::string finish() {
    for (uint32_t r : restarts_) put_fixed32(buffer_, r);
    put_fixed32(buffer_, static_cast<uint32_t>(restarts_.size()));
    std::string out = std::move(buffer_);
    buffer_.clear();
    restarts_.assign(1, 0);
    counter_ = 0;
    last_key_.clear();
    return out;
  }

 private:
  int restart_interval_;
  std::string buffer_;
  std::vector<uint32_t> restarts_;
  int counter_ = 0;
  std::string last_key_;
};

// Appends a block and its trailer to `file`; returns where it went.
BlockHandle write_block(std::string& file, const std::string& contents) {
  BlockHandle h{file.size(), contents.size()};
  file.append(contents);
  const char type = static_cast<char>(kNoCompression);
  file.push_back(type);
  uint32_t crc = crc32c_extend(crc32c(contents), &type, 1);
  put_fixed32(file, crc32c_mask(crc));
  return h;
}

// The shortest key k with start <= k < limit, as LevelDB's bytewise comparator chooses it.
void shorten_separator(std::string& start, std::string_view limit) {
  const size_t n = std::min(start.size(), limit.size());
  size_t i = 0;
  while (i < n && start[i] == limit[i]) ++i;
  if (i >= n) return;  // one is a prefix of the other
  const auto byte = static_cast<unsigned char>(start[i]);
  if (byte < 0xff && byte + 1 < static_cast<unsigned char>(limit[i])) {
    start[i] = static_cast<char>(byte + 1);
    start.resize(i + 1);
  }
}

// The shortest key >= `key`: the first byte that can grow does, the rest is dropped.
void short_successor(std::string& key) {
  for (size_t i = 0; i < key.size(); ++i) {
    const auto byte = static_cast<unsigned char>(key[i]);
    if (byte != 0xff) {
      key[i] = static_cast<char>(byte + 1);
      key.resize(i + 1);
      return;
    }
  }
}

std::string_view read_block(std::string_view file, const BlockHandle& h, const char* what) {
  if (h.offset > file.size() || h.size > file.size() - h.offset ||
      file.size() - h.offset - h.size < kBlockTrailerSize) {
    throw TableError(std::string(what) + " block handle out of range (offset " +
                     std::to_string(h.offset) + ", size " + std::to_string(h.size) +
                     ", file size " + std::to_string(file.size()) + ")");
  }
  std::string_view contents = file.substr(h.offset, h.size);
  const char type = file[h.offset + h.size];
  const uint32_t stored = get_fixed32(file, h.offset + h.size + 1);
  const uint32_t actual = crc32c_extend(crc32c(contents), &type, 1);
  if (crc32c_unmask(stored) != actual)
    throw TableError(std::string(what) + " block checksum mismatch");
  if (static_cast<unsigned char>(type) != kNoCompression) {
    throw TableError(std::string(what) + " block is compressed (type " +
                     std::to_string(static_cast<unsigned char>(type)) + "), which is unsupported");
  }
  return contents;
}

// Decodes every entry of one block; keys must increase strictly.
TableEntries parse_block(std::string_view block, const char* what) {
  const std::string w(what);
  if (block.size() < 4) throw TableError(w + " block too short");
  const uint32_t num_restarts = get_fixed32(block, block.size() - 4);
  const uint64_t restarts_bytes = (uint64_t(num_restarts) + 1) * 4;
  if (num_restarts == 0 || restarts_bytes > block.size()) {
    throw TableError(w + " block has a bad restart count " + std::to_string(num_restarts));
  }
  const size_t limit = block.size() - restarts_bytes;
  for (uint32_t i = 0; i < num_restarts; ++i) {
    const uint32_t r = get_fixed32(block, limit + 4 * i);
    if (r > limit || (i == 0 && r != 0)) throw TableError(w + " block has a bad restart offset");
  }
  TableEntries entries;
  std::string key;
  size_t pos = 0;
  while (pos < limit) {
    std::string_view body = block.substr(0, limit);
    const uint32_t shared = get_varint32(body, pos, what);
    const uint32_t unshared = get_varint32(body, pos, what);
    const uint32_t value_len = get_varint32(body, pos, what);
    if (shared > key.size() || unshared > limit - pos || value_len > limit - pos - unshared) {
      throw TableError(w + " block entry runs past the block");
    }
    std::string next = key.substr(0, shared);
    next.append(body.substr(pos, unshared));
    pos += unshared;
    if (!entries.empty() && !(next > entries.back().first)) {
      throw TableError(w + " block keys out of order");
    }
    entries.emplace_back(next, std::string(body.substr(pos, value_len)));
    pos += value_len;
    key = std::move(next);
  }
  return entries;
}

}  // namespace

void put_varint64(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_fixed32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void put_fixed64(std::string& out, uint64_t v) {
  put_fixed32(out, static_cast<uint32_t>(v));
  put_fixed32(out, static_cast<uint32_t>(v >> 32));
}

uint64_t get_varint64(std::string_view in, size_t& pos, const char* what) {
  uint64_t v = 0;
  for (int shift = 0; shift <= 63; shift += 7) {
    if (pos >= in.size()) throw TableError(std::string(what) + " truncated varint");
    const auto byte = static_cast<unsigned char>(in[pos++]);
    v |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return v;
  }
  throw TableError(std::string(what) + " malformed varint");
}

uint32_t get_varint32(std::string_view in, size_t& pos, const char* what) {
  const uint64_t v = get_varint64(in, pos, what);
  if (v > 0xffffffffu) throw TableError(std::string(what) + " malformed varint32");
  return static_cast<uint32_t>(v);
}

uint32_t get_fixed32(std::string_view in, size_t pos) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(in[pos + i]);
  return v;
}

uint64_t get_fixed64(std::string_view in, size_t pos) {
  return uint64_t(get_fixed32(in, pos)) | (uint64_t(get_fixed32(in, pos + 4)) << 32);
}

std::string build_table(const TableEntries& entries, const TableOptions& options) {
  std::string file;
  BlockBuilder data(options.block_restart_interval);
  BlockBuilder index(1);
  std::string last_key;
  bool pending_index_entry = false;
  BlockHandle pending;
  for (size_t i = 0; i < entries.size(); ++i) {
    const auto& [key, value] = entries[i];
    if (i > 0 && !(key > last_key)) throw TableError("table keys must increase strictly");
    if (pending_index_entry) {
      shorten_separator(last_key, key);
      std::string h;
      put_handle(h, pending);
      index.add(last_key, h);
      pending_index_entry = false;
    }
    last_key = key;
    data.add(key, value);
    if (data.size_estimate() >= options.block_size) {
      pending = write_block(file, data.finish());
      pending_index_entry = true;
    }
  }
  if (!data.empty()) {
    pending = write_block(file, data.finish());
    pending_index_entry = true;
  }
  const BlockHandle metaindex =
      write_block(file, BlockBuilder(options.block_restart_interval).finish());
  if (pending_index_entry) {
    short_successor(last_key);
    std::string h;
    put_handle(h, pending);
    index.add(last_key, h);
  }
  const BlockHandle index_handle = write_block(file, index.finish());
  std::string footer;
  put_handle(footer, metaindex);
  put_handle(footer, index_handle);
  footer.resize(kFooterSize - 8, '\0');
  put_fixed64(footer, kTableMagic);
  file.append(footer);
  return file;
}

TableEntries read_table(std::string_view file) {
  if (file.size() < kFooterSize) {
    throw TableError("file too short for a table footer (" + std::to_string(file.size()) +
                     " bytes, need 48)");
  }
  const size_t footer_at = file.size() - kFooterSize;
  if (get_fixed64(file, file.size() - 8) != kTableMagic) {
    throw TableError("bad table magic number (not an SSTable, or truncated)");
  }
  std::string_view footer = file.substr(footer_at, kFooterSize - 8);
  size_t pos = 0;
  const BlockHandle metaindex = get_handle(footer, pos, "footer");
  const BlockHandle index_handle = get_handle(footer, pos, "footer");
  read_block(file.substr(0, footer_at), metaindex, "metaindex");
  const TableEntries index =
      parse_block(read_block(file.substr(0, footer_at), index_handle, "index"), "index");
  TableEntries all;
  for (const auto& [separator, handle_bytes] : index) {
    size_t hp = 0;
    const BlockHandle h = get_handle(handle_bytes, hp, "index entry");
    TableEntries block = parse_block(read_block(file.substr(0, footer_at), h, "data"), "data");
    for (auto& e : block) {
      if (!all.empty() && !(e.first > all.back().first)) throw TableError("data keys out of order");
      if (e.first > separator) throw TableError("data key beyond its index separator");
      all.push_back(std::move(e));
    }
  }
  return all;
}

}  // namespace tfs::savedmodel::detail
