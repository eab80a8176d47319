// fingerprint.pb's hashes, as TF 2.21 computes them (see tfscope/saved_model_fingerprint.h).
#include "tfscope/saved_model_fingerprint.h"

#include <farmhash.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <filesystem>
#include <map>
#include <random>

#include "file_util.h"
#include "tfscope/saved_model_io.h"

namespace tfs::savedmodel {
namespace {

// protobuf's deterministic serialization (map entries by key), as TF's
// SerializeToStringDeterministic.
std::string deterministic(const google::protobuf::Message& m) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    m.SerializeToCodedStream(&coded);
  }
  return out;
}

uint64_t fp64(std::string_view s) {
  return util::Fingerprint64(s.data(), s.size());
}

uint64_t shift_mix(uint64_t v) {
  return v ^ (v >> 47);
}

// The integer after a function name's last '_' (absl::SimpleAtoi: optional sign, digits).
std::optional<int64_t> suffix_uid(const std::string& name) {
  const std::string last =
      name.substr(name.rfind('_') == std::string::npos ? 0 : name.rfind('_') + 1);
  size_t i = 0;
  bool negative = false;
  if (i < last.size() && (last[i] == '+' || last[i] == '-')) negative = last[i++] == '-';
  if (i == last.size()) return std::nullopt;
  uint64_t v = 0;
  for (; i < last.size(); ++i) {
    if (last[i] < '0' || last[i] > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(last[i] - '0');
    if (v > static_cast<uint64_t>(INT64_MAX) + (negative ? 1 : 0)) return std::nullopt;
  }
  return negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
}

std::string strip_uid(const std::string& name, int64_t uid) {
  const std::string s = std::to_string(uid);
  if (name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0)
    return name.substr(0, name.size() - s.size());
  return name;
}

// TF's graph_regularization::SimpleDelete.
void regularize(tensorflow::GraphDef& g) {
  for (tensorflow::NodeDef& node : *g.mutable_node()) {
    if (node.op() == "PartitionedCall" || node.op() == "StatefulPartitionedCall") {
      auto f = node.mutable_attr()->find("f");
      if (f != node.mutable_attr()->end()) {
        const std::string name = f->second.func().name();
        if (auto uid = suffix_uid(name)) f->second.mutable_func()->set_name(strip_uid(name, *uid));
      }
      auto cfg = node.mutable_attr()->find("config_proto");
      if (cfg != node.mutable_attr()->end()) cfg->second.mutable_s()->clear();
    }
    if (node.op() == "Const") {
      auto dt = node.attr().find("dtype");
      auto value = node.mutable_attr()->find("value");
      if (dt != node.attr().end() && dt->second.type() == tensorflow::DT_STRING &&
          value != node.mutable_attr()->end())
        value->second.clear_value();
    }
  }
  g.mutable_library()->Clear();
  g.mutable_versions()->Clear();
}

uint64_t signature_hash(const tensorflow::MetaGraphDef& mg) {
  std::map<std::string, const tensorflow::SignatureDef*> sorted;
  for (const auto& [key, sig] : mg.signature_def()) sorted.emplace(key, &sig);
  uint64_t h = 0;
  for (const auto& [key, sig] : sorted) {
    h = fingerprint_cat64(h, fp64(key));
    h = fingerprint_cat64(h, fp64(deterministic(*sig)));
  }
  return h;
}

uint64_t object_graph_hash(const tensorflow::SavedObjectGraph& og) {
  std::map<int64_t, std::string> by_uid;
  for (const auto& [name, fn] : og.concrete_functions()) {
    auto uid = suffix_uid(name);
    if (!uid)
      throw FormatError("[savedmodel] fingerprint: function name `" + name +
                        "` does not end in an integer");
    by_uid.emplace(*uid, name);
  }
  uint64_t h = 0;
  for (const auto& [uid, name] : by_uid) {
    h = fingerprint_cat64(h, fp64(strip_uid(name, uid)));
    h = fingerprint_cat64(h, fp64(deterministic(og.concrete_functions().at(name))));
  }
  return h;
}

}  // namespace

uint64_t fingerprint_cat64(uint64_t a, uint64_t b) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ULL;
  uint64_t r = a ^ kMul;
  r ^= shift_mix(b * kMul) * kMul;
  r *= kMul;
  r = shift_mix(r) * kMul;
  return shift_mix(r);
}

tensorflow::FingerprintDef compute_fingerprint(const tensorflow::SavedModel& model,
                                               const std::optional<std::string>& checkpoint_index) {
  if (model.meta_graphs_size() == 0)
    throw FormatError("[savedmodel] fingerprint: the SavedModel has no MetaGraphDef");
  tensorflow::FingerprintDef fp;
  fp.set_saved_model_checksum(fp64(deterministic(model)));
  tensorflow::MetaGraphDef mg = model.meta_graphs(0);
  regularize(*mg.mutable_graph_def());
  fp.set_graph_def_program_hash(fp64(deterministic(mg.graph_def())));
  fp.set_signature_def_hash(signature_hash(mg));
  fp.set_saved_object_graph_hash(object_graph_hash(mg.object_graph_def()));
  fp.set_checkpoint_hash(checkpoint_index ? fp64(*checkpoint_index) : 0);
  fp.mutable_version()->set_producer(4);  // what TF 2.21 writes
  return fp;
}

tensorflow::FingerprintDef compute_fingerprint(const std::string& dir) {
  const std::filesystem::path index = std::filesystem::path(variables_prefix(dir) + ".index");
  std::error_code ec;
  std::optional<std::string> bytes;
  if (std::filesystem::is_regular_file(index, ec)) bytes = detail::read_file(index.string());
  return compute_fingerprint(read_saved_model(dir), bytes);
}

std::string random_fingerprint_uuid() {
  std::random_device rd;
  unsigned __int128 v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 32) | rd();
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  if (s.size() < 20) s.insert(0, 20 - s.size(), '0');
  return s;
}

}  // namespace tfs::savedmodel
