#include "tfscope/lite_format.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tfscope/detail/file_write.h"

namespace tfs::lite {
namespace {

// The verifier's limits: deep enough for any real model, small enough to bound work on junk.
constexpr flatbuffers::uoffset_t kMaxDepth = 64;
constexpr flatbuffers::uoffset_t kMaxTables = 10'000'000;

std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[5];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// Walks a verified model and checks every cross-reference; `fail` throws.
class Checker {
 public:
  Checker(const tflite::Model& m, size_t file_size, const std::string& name)
      : m_(m), file_size_(file_size), name_(name) {}

  void run() {
    if (m_.version() != kSchemaVersion) {
      fail("schema version " + std::to_string(m_.version()) + ", expected " +
           std::to_string(kSchemaVersion));
    }
    num_buffers_ = m_.buffers() ? m_.buffers()->size() : 0;
    num_codes_ = m_.operator_codes() ? m_.operator_codes()->size() : 0;
    if (!m_.subgraphs() || m_.subgraphs()->size() == 0) fail("no subgraphs");
    if (m_.buffers()) {
      for (uint32_t b = 0; b < num_buffers_; ++b) check_buffer(b, *m_.buffers()->Get(b));
    }
    for (uint32_t s = 0; s < m_.subgraphs()->size(); ++s)
      check_subgraph(s, *m_.subgraphs()->Get(s));
    if (m_.signature_defs()) {
      for (uint32_t i = 0; i < m_.signature_defs()->size(); ++i) {
        check_signature(i, *m_.signature_defs()->Get(i));
      }
    }
    if (m_.metadata()) {
      for (uint32_t i = 0; i < m_.metadata()->size(); ++i) {
        if (m_.metadata()->Get(i)->buffer() >= num_buffers_) {
          fail("metadata " + std::to_string(i) + ": buffer " +
               std::to_string(m_.metadata()->Get(i)->buffer()) + " out of range (" +
               std::to_string(num_buffers_) + " buffers)");
        }
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw FormatError("[lite] " + name_ + ": " + what);
  }

  void check_buffer(uint32_t b, const tflite::Buffer& buf) {
    // Models over 2 GB keep buffer data after the flatbuffer, at `offset` (offset 1 = none).
    if (buf.offset() > 1 && (buf.offset() > file_size_ || buf.size() > file_size_ - buf.offset())) {
      fail("buffer " + std::to_string(b) + ": external data (offset " +
           std::to_string(buf.offset()) + ", size " + std::to_string(buf.size()) +
           ") runs past the end of the file (" + std::to_string(file_size_) + " bytes)");
    }
  }

  size_t buffer_bytes(uint32_t b) const {
    const tflite::Buffer* buf = m_.buffers()->Get(b);
    if (buf->data()) return buf->data()->size();
    return buf->offset() > 1 ? buf->size() : 0;
  }

  void check_tensor(const std::string& where, const tflite::Tensor& t) {
    const std::string label = where + (t.name() ? " '" + t.name()->str() + "'" : "");
    uint64_t elements = 1;
    const int rank = t.shape() ? static_cast<int>(t.shape()->size()) : 0;
    for (int i = 0; i < rank; ++i) {
      const int d = t.shape()->Get(i);
      if (d < 0) fail(label + ": negative dimension " + std::to_string(d) + " in shape");
      elements = std::min<uint64_t>(elements * static_cast<uint64_t>(d), uint64_t{1} << 40);
    }
    if (t.buffer() != 0 || num_buffers_ > 0) {
      if (t.buffer() >= num_buffers_) {
        fail(label + ": buffer " + std::to_string(t.buffer()) + " out of range (" +
             std::to_string(num_buffers_) + " buffers)");
      }
      const size_t have = buffer_bytes(t.buffer());
      const size_t elem = tensor_type_size(t.type());
      if (have != 0 && elem != 0 && t.shape() && have != elements * elem) {
        fail(label + ": buffer " + std::to_string(t.buffer()) + " holds " + std::to_string(have) +
             " bytes, " + tensor_type_name(t.type()) + " shape needs " +
             std::to_string(elements * elem));
      }
    }
    if (const tflite::QuantizationParameters* q = t.quantization()) {
      const size_t scales = q->scale() ? q->scale()->size() : 0;
      const size_t zps = q->zero_point() ? q->zero_point()->size() : 0;
      if (scales != zps && zps != 0) {
        fail(label + ": " + std::to_string(scales) + " quantization scales but " +
             std::to_string(zps) + " zero points");
      }
      if (scales > 1) {
        const int qd = q->quantized_dimension();
        if (qd < 0 || qd >= rank) {
          fail(label + ": quantized_dimension " + std::to_string(qd) + " out of range for rank " +
               std::to_string(rank));
        }
        if (static_cast<size_t>(t.shape()->Get(qd)) != scales) {
          fail(label + ": " + std::to_string(scales) + " scales for dimension " +
               std::to_string(qd) + " of size " + std::to_string(t.shape()->Get(qd)));
        }
      }
    }
  }

  void check_indices(const std::string& where, const flatbuffers::Vector<int32_t>* v,
                     uint32_t num_tensors, bool optional_allowed) {
    if (!v) return;
    for (int32_t i : *v) {
      if ((i == -1 && optional_allowed) || (i >= 0 && static_cast<uint32_t>(i) < num_tensors))
        continue;
      fail(where + ": tensor index " + std::to_string(i) + " out of range (" +
           std::to_string(num_tensors) + " tensors)");
    }
  }

  void check_subgraph(uint32_t s, const tflite::SubGraph& g) {
    const std::string sg = "subgraph " + std::to_string(s);
    const uint32_t nt = g.tensors() ? g.tensors()->size() : 0;
    for (uint32_t t = 0; t < nt; ++t)
      check_tensor(sg + " tensor " + std::to_string(t), *g.tensors()->Get(t));
    check_indices(sg + " inputs", g.inputs(), nt, false);
    check_indices(sg + " outputs", g.outputs(), nt, false);
    if (!g.operators()) return;
    for (uint32_t o = 0; o < g.operators()->size(); ++o) {
      const tflite::Operator& op = *g.operators()->Get(o);
      std::string where = sg + " operator " + std::to_string(o);
      if (op.opcode_index() >= num_codes_) {
        fail(where + ": opcode_index " + std::to_string(op.opcode_index()) + " out of range (" +
             std::to_string(num_codes_) + " operator codes)");
      }
      where += " (" +
               builtin_operator_name(builtin_code(*m_.operator_codes()->Get(op.opcode_index()))) +
               ")";
      check_indices(where + " inputs", op.inputs(), nt, true);
      check_indices(where + " outputs", op.outputs(), nt, false);
      check_indices(where + " intermediates", op.intermediates(), nt, false);
    }
  }

  void check_signature(uint32_t i, const tflite::SignatureDef& sig) {
    const std::string where = "signature " + std::to_string(i);
    if (sig.subgraph_index() >= m_.subgraphs()->size()) {
      fail(where + ": subgraph_index " + std::to_string(sig.subgraph_index()) + " out of range");
    }
    const tflite::SubGraph& g = *m_.subgraphs()->Get(sig.subgraph_index());
    const uint32_t nt = g.tensors() ? g.tensors()->size() : 0;
    for (const auto* maps : {sig.inputs(), sig.outputs()}) {
      if (!maps) continue;
      for (const tflite::TensorMap* tm : *maps) {
        if (tm->tensor_index() >= nt) {
          fail(where + ": tensor_index " + std::to_string(tm->tensor_index()) + " out of range (" +
               std::to_string(nt) + " tensors)");
        }
      }
    }
  }

  const tflite::Model& m_;
  size_t file_size_;
  const std::string& name_;
  uint32_t num_buffers_ = 0;
  uint32_t num_codes_ = 0;
};

}  // namespace

ModelFile::ModelFile(std::string bytes, std::string name)
    : bytes_(std::make_shared<const std::string>(std::move(bytes))), name_(std::move(name)) {
  const std::string& b = *bytes_;
  auto invalid = [&](const std::string& why) -> void {
    throw FormatError("[lite] " + name_ + ": not a valid TFLite model (" + why + ")");
  };
  if (b.size() < 8) invalid("file too short: " + std::to_string(b.size()) + " bytes");
  if (b.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) invalid("larger than 2 GB");
  if (b.compare(4, 4, kFileIdentifier) != 0) {
    invalid("file identifier '" + printable(b.substr(4, 4)) + "', expected 'TFL3'");
  }
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(b.data()), b.size(), kMaxDepth,
                                 kMaxTables);
  if (!tflite::VerifyModelBuffer(verifier)) invalid("flatbuffer verification failed");
  model_ = tflite::GetModel(b.data());
  Checker(*model_, b.size(), name_).run();
}

ModelFile ModelFile::read(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FormatError("[lite] " + path + ": is a directory, expected a .tflite file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FormatError("[lite] " + path + ": cannot open (" + std::strerror(errno) + ")");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ModelFile(std::move(ss).str(), path);
}

tflite::BuiltinOperator builtin_code(const tflite::OperatorCode& code) {
  return static_cast<tflite::BuiltinOperator>(
      std::max<int32_t>(code.builtin_code(), code.deprecated_builtin_code()));
}

std::string builtin_operator_name(int code) {
  const char* name = "";
  if (code >= tflite::BuiltinOperator_MIN && code <= tflite::BuiltinOperator_MAX) {
    name = tflite::EnumNameBuiltinOperator(static_cast<tflite::BuiltinOperator>(code));
  }
  return *name ? name : "UNKNOWN(" + std::to_string(code) + ")";
}

std::string tensor_type_name(int type) {
  const char* name = "";
  if (type >= tflite::TensorType_MIN && type <= tflite::TensorType_MAX) {
    name = tflite::EnumNameTensorType(static_cast<tflite::TensorType>(type));
  }
  return *name ? name : "UNKNOWN(" + std::to_string(type) + ")";
}

size_t tensor_type_size(int type) {
  switch (type) {
    case tflite::TensorType_FLOAT32:
      return 4;
    case tflite::TensorType_FLOAT16:
      return 2;
    case tflite::TensorType_INT32:
      return 4;
    case tflite::TensorType_UINT8:
      return 1;
    case tflite::TensorType_INT64:
      return 8;
    case tflite::TensorType_BOOL:
      return 1;
    case tflite::TensorType_INT16:
      return 2;
    case tflite::TensorType_COMPLEX64:
      return 8;
    case tflite::TensorType_INT8:
      return 1;
    case tflite::TensorType_FLOAT64:
      return 8;
    case tflite::TensorType_COMPLEX128:
      return 16;
    case tflite::TensorType_UINT64:
      return 8;
    case tflite::TensorType_UINT32:
      return 4;
    case tflite::TensorType_UINT16:
      return 2;
    case tflite::TensorType_BFLOAT16:
      return 2;
    default:
      return 0;  // STRING, RESOURCE, VARIANT, and the packed INT4/INT2/UINT4
  }
}

flatbuffers::Offset<tflite::OperatorCode> create_operator_code(flatbuffers::FlatBufferBuilder& fbb,
                                                               tflite::BuiltinOperator code,
                                                               int version) {
  const auto deprecated = static_cast<int8_t>(
      std::min<int32_t>(code, tflite::BuiltinOperator_PLACEHOLDER_FOR_GREATER_OP_CODES));
  return tflite::CreateOperatorCode(fbb, deprecated, 0, version, code);
}

std::string finish_model(flatbuffers::FlatBufferBuilder& fbb,
                         flatbuffers::Offset<tflite::Model> model) {
  tflite::FinishModelBuffer(fbb, model);
  return std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

void write_model_file(const std::string& path, std::string_view bytes) {
  tfs::detail::replace_file(path, bytes);
}

}  // namespace tfs::lite
