#include "tf_serialize.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace tfs::savedmodel::detail {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

uint64_t varint(const std::string& b, size_t& pos, size_t end) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64 && pos < end; shift += 7) {
    const auto byte = static_cast<unsigned char>(b[pos++]);
    v |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return v;
  }
  throw std::logic_error("malformed serialization");
}

uint64_t fixed(const std::string& b, size_t pos, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[pos + i]);
  return v;
}

struct Field {
  size_t start, payload, end;
  uint64_t tag;
};

// Reads the field at `pos`; for length-delimited fields `payload` is where the bytes begin.
Field next_field(const std::string& b, size_t pos, size_t end) {
  Field f{pos, 0, 0, varint(b, pos, end)};
  switch (f.tag & 7) {
    case 3: {  // a group (only in unknown fields): skip to its end-group tag
      for (;;) {
        if (pos >= end) throw std::logic_error("unterminated group");
        const Field inner = next_field(b, pos, end);
        pos = inner.end;
        if ((inner.tag & 7) == 4) {
          if ((inner.tag >> 3) != (f.tag >> 3)) throw std::logic_error("mismatched group end");
          break;
        }
      }
      break;
    }
    case 4:
      break;  // end of group: the caller's loop sees it
    case 0:
      varint(b, pos, end);
      break;
    case 1:
      pos += 8;
      break;
    case 5:
      pos += 4;
      break;
    case 2: {
      const uint64_t len = varint(b, pos, end);
      f.payload = pos;
      pos += len;
      break;
    }
    default:
      throw std::logic_error("unexpected wire type");
  }
  if (pos > end) throw std::logic_error("field past end");
  f.end = pos;
  return f;
}

struct MapKey {
  uint64_t number = 0;
  std::string bytes;
};

MapKey map_key(const std::string& b, const Field& entry) {
  MapKey key;
  size_t pos = entry.payload;
  while (pos < entry.end) {
    const Field f = next_field(b, pos, entry.end);
    if ((f.tag >> 3) == 1) {
      size_t p = f.start;
      varint(b, p, entry.end);  // the tag
      switch (f.tag & 7) {
        case 0:
          key.number = varint(b, p, entry.end);
          break;
        case 1:
          key.number = fixed(b, p, 8);
          break;
        case 5:
          key.number = fixed(b, p, 4);
          break;
        case 2:
          key.bytes = b.substr(f.payload, f.end - f.payload);
          break;
      }
    }
    pos = f.end;
  }
  return key;
}

// upb's order: see the header.
bool upb_before(const MapKey& x, const MapKey& y, bool string_keys) {
  if (!string_keys) return x.number > y.number;
  const size_t common = std::min(x.bytes.size(), y.bytes.size());
  const int c = x.bytes.compare(0, common, y.bytes, 0, common);
  if (c != 0) return c < 0;
  return x.bytes.size() > y.bytes.size();
}

void reorder(std::string& b, size_t begin, size_t end, const Descriptor* type) {
  size_t pos = begin;
  while (pos < end) {
    const Field f = next_field(b, pos, end);
    const FieldDescriptor* fd = type->FindFieldByNumber(static_cast<int>(f.tag >> 3));
    if ((f.tag & 7) != 2 || !fd || fd->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE) {
      pos = f.end;
      continue;
    }
    if (!fd->is_map()) {
      reorder(b, f.payload, f.end, fd->message_type());
      pos = f.end;
      continue;
    }
    // A run of entries of one map field (C++ writes them together).
    const bool string_keys =
        fd->message_type()->map_key()->cpp_type() == FieldDescriptor::CPPTYPE_STRING;
    std::vector<std::pair<MapKey, std::string>> entries;
    size_t run_end = pos;
    while (run_end < end) {
      const Field e = next_field(b, run_end, end);
      if (e.tag != f.tag) break;
      reorder(b, e.payload, e.end, fd->message_type());
      entries.emplace_back(map_key(b, e), b.substr(e.start, e.end - e.start));
      run_end = e.end;
    }
    std::stable_sort(entries.begin(), entries.end(), [&](const auto& x, const auto& y) {
      return upb_before(x.first, y.first, string_keys);
    });
    size_t at = pos;
    for (const auto& [key, bytes] : entries) {
      b.replace(at, bytes.size(), bytes);
      at += bytes.size();
    }
    pos = run_end;
  }
}

}  // namespace

void reorder_maps_like_upb(std::string& bytes, const Descriptor* type) {
  reorder(bytes, 0, bytes.size(), type);
}

}  // namespace tfs::savedmodel::detail
