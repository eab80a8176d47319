// The LevelDB table format ("SSTable") that TensorFlow writes variables.index in, as TF's own
// table builder lays it out for checkpoints: uncompressed blocks, block_size 256 KiB, a restart
// point every 16 entries in data blocks and every entry in the index block, an empty metaindex
// block, a 48-byte footer ending in the table magic.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfs::savedmodel::detail {

// What is wrong with a table or an encoded value, without the file name: callers add it.
class TableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void put_varint64(std::string& out, uint64_t v);
void put_fixed32(std::string& out, uint32_t v);
void put_fixed64(std::string& out, uint64_t v);
// Reads a varint at `pos`, advancing it; throws TableError naming `what` when the input ends or
// the varint is too long.
uint64_t get_varint64(std::string_view in, size_t& pos, const char* what);
uint32_t get_varint32(std::string_view in, size_t& pos, const char* what);
uint32_t get_fixed32(std::string_view in, size_t pos);
uint64_t get_fixed64(std::string_view in, size_t pos);

struct TableOptions {
  size_t block_size = 262144;
  int block_restart_interval = 16;
};

using TableEntries = std::vector<std::pair<std::string, std::string>>;

// Encodes `entries` (keys strictly increasing, bytewise) as a table file.
std::string build_table(const TableEntries& entries, const TableOptions& options = {});

// Decodes a whole table, checking the footer, every block handle, block checksum, block layout and
// key order. Throws TableError on the first problem.
TableEntries read_table(std::string_view file);

}  // namespace tfs::savedmodel::detail
