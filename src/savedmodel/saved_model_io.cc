#include "tfscope/saved_model_io.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <filesystem>
#include <sstream>

#include "file_util.h"
#include "tfscope/detail/file_write.h"
#include "tf_serialize.h"
#include "tfscope/proto/types.pb.h"

namespace tfs::savedmodel {
namespace {

namespace fs = std::filesystem;

std::string join(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

std::string shape_str(const tensorflow::TensorShapeProto& s) {
  if (s.unknown_rank()) return "<unknown>";
  std::string out = "(";
  for (int i = 0; i < s.dim_size(); ++i) {
    if (i) out += ", ";
    out += s.dim(i).size() < 0 ? "None" : std::to_string(s.dim(i).size());
  }
  if (s.dim_size() == 1) out += ",";
  return out + ")";
}

std::string dtype_str(int dtype) {
  const std::string& name = tensorflow::DataType_Name(static_cast<tensorflow::DataType>(dtype));
  if (name.size() > 3 && name.compare(0, 3, "DT_") == 0) {
    std::string lower;
    for (char c : name.substr(3)) lower += static_cast<char>(std::tolower(c));
    return lower;
  }
  return "dtype" + std::to_string(dtype);
}

void describe_tensor_info(std::ostringstream& out, const std::string& key,
                          const tensorflow::TensorInfo& info) {
  out << "      " << key << ": " << dtype_str(info.dtype()) << shape_str(info.tensor_shape());
  if (info.has_coo_sparse()) {
    out << " sparse";
  } else if (info.has_composite_tensor()) {
    out << " composite";
  } else {
    out << " <- " << info.name();
  }
  out << "\n";
}

}  // namespace

std::string serialize_as_tf(const google::protobuf::Message& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }
  const std::string cpp_order = out;
  try {
    detail::reorder_maps_like_upb(out, message.GetDescriptor());
  } catch (const std::logic_error&) {
    return cpp_order;  // cannot happen for protobuf's own output; keep its bytes if it does
  }
  return out;
}

tensorflow::SavedModel parse_saved_model(std::string_view bytes, const std::string& name) {
  tensorflow::SavedModel model;
  detail::silence_protobuf_logs();
  google::protobuf::io::CodedInputStream in(
      reinterpret_cast<const uint8_t*>(bytes.data()),
      static_cast<int>(std::min<size_t>(bytes.size(), INT32_MAX)));
  if (bytes.size() > INT32_MAX) throw FormatError("[savedmodel] " + name + ": larger than 2 GB");
  if (!model.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    throw FormatError("[savedmodel] " + name + ": not a valid SavedModel protobuf (" +
                      std::to_string(bytes.size()) + " bytes)");
  }
  if (model.meta_graphs_size() == 0)
    throw FormatError("[savedmodel] " + name + ": no MetaGraphDef");
  return model;
}

tensorflow::SavedModel read_saved_model(const std::string& dir) {
  const std::string path = join(dir, kSavedModelFilename);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw FormatError("[savedmodel] " + dir + ": not a SavedModel directory");
  }
  if (!fs::exists(path, ec)) {
    if (fs::exists(join(dir, "saved_model.pbtxt"), ec) ||
        fs::exists(join(dir, "saved_model.cpb"), ec)) {
      throw FormatError("[savedmodel] " + dir +
                        ": only binary saved_model.pb is supported (found .pbtxt or .cpb)");
    }
    throw FormatError("[savedmodel] " + dir + ": not a SavedModel directory (no saved_model.pb)");
  }
  return parse_saved_model(detail::read_file(path), path);
}

void write_saved_model(const std::string& dir, const tensorflow::SavedModel& model) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) tfs::detail::throw_file_error(dir, ec.value());
  detail::write_file(join(dir, kSavedModelFilename), serialize_as_tf(model));
}

std::optional<tensorflow::FingerprintDef> read_fingerprint(const std::string& dir) {
  const std::string path = join(dir, kFingerprintFilename);
  std::error_code ec;
  if (!fs::exists(path, ec)) return std::nullopt;
  tensorflow::FingerprintDef fp;
  detail::silence_protobuf_logs();
  if (!fp.ParseFromString(detail::read_file(path))) {
    throw FormatError("[savedmodel] " + path + ": not a valid FingerprintDef protobuf");
  }
  return fp;
}

std::string variables_prefix(const std::string& dir) {
  return (fs::path(dir) / kVariablesDirectory / kVariablesFilename).string();
}

std::string describe_saved_model(const tensorflow::SavedModel& model) {
  std::ostringstream out;
  out << "SavedModel schema version " << model.saved_model_schema_version() << ", "
      << model.meta_graphs_size() << " meta graph(s)\n";
  for (const auto& mg : model.meta_graphs()) {
    out << "  meta graph tags [";
    for (int i = 0; i < mg.meta_info_def().tags_size(); ++i) {
      out << (i ? ", " : "") << mg.meta_info_def().tags(i);
    }
    out << "]";
    if (!mg.meta_info_def().tensorflow_version().empty()) {
      out << " written by TF " << mg.meta_info_def().tensorflow_version();
    }
    out << "\n    graph: " << mg.graph_def().node_size() << " nodes, "
        << mg.graph_def().library().function_size() << " functions, producer "
        << mg.graph_def().versions().producer() << "\n";
    if (mg.has_object_graph_def()) {
      out << "    object graph: " << mg.object_graph_def().nodes_size() << " nodes, "
          << mg.object_graph_def().concrete_functions_size() << " concrete functions\n";
    }
    // Sorted for stable output.
    std::map<std::string, const tensorflow::SignatureDef*> sigs;
    for (const auto& [k, v] : mg.signature_def()) sigs[k] = &v;
    for (const auto& [key, sig] : sigs) {
      out << "    signature '" << key << "' (" << sig->method_name() << ")\n";
      std::map<std::string, const tensorflow::TensorInfo*> ins({}), outs;
      for (const auto& [k, v] : sig->inputs()) ins[k] = &v;
      for (const auto& [k, v] : sig->outputs()) outs[k] = &v;
      out << "     inputs:\n";
      for (const auto& [k, v] : ins) describe_tensor_info(out, k, *v);
      out << "     outputs:\n";
      for (const auto& [k, v] : outs) describe_tensor_info(out, k, *v);
    }
  }
  return out.str();
}

}  // namespace tfs::savedmodel
