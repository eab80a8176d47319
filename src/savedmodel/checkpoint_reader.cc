// tf.train.load_checkpoint over the TensorBundle reader (tfscope/checkpoint.h).
#include "tfscope/checkpoint.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "graph_convert.h"
#include "tfscope/errors.h"
#include "tfscope/proto/trackable_object_graph.pb.h"
#include "tfscope/tensor_bundle.h"

namespace tfs::checkpoint {
namespace {

namespace fs = std::filesystem;

// The string value of `field: "..."` in a text-format line (C escapes \\ \" \n \t undone).
bool text_field(const std::string& line, const std::string& field, std::string* out) {
  const std::string head = field + ":";
  size_t p = line.find_first_not_of(" \t");
  if (p == std::string::npos || line.compare(p, head.size(), head) != 0) return false;
  p = line.find('"', p + head.size());
  if (p == std::string::npos) return false;
  std::string v;
  for (size_t i = p + 1; i < line.size(); ++i) {
    char c = line[i];
    if (c == '"') {
      *out = v;
      return true;
    }
    if (c == '\\' && i + 1 < line.size()) {
      c = line[++i];
      if (c == 'n') c = '\n';
      if (c == 't') c = '\t';
    }
    v += c;
  }
  return false;
}

}  // namespace

std::string latest_checkpoint(const std::string& dir) {
  std::ifstream in(fs::path(dir) / "checkpoint");
  if (!in) return "";
  std::string line, path;
  while (std::getline(in, line))
    if (text_field(line, "model_checkpoint_path", &path)) break;
  if (path.empty()) return "";
  fs::path p(path);
  if (p.is_relative()) p = fs::path(dir) / p;
  std::error_code ec;
  if (!fs::exists(p.string() + ".index", ec)) return "";
  return p.string();
}

CheckpointReader::CheckpointReader(const std::string& path) {
  std::error_code ec;
  prefix_ = path;
  if (fs::is_directory(path, ec)) {
    prefix_ = latest_checkpoint(path);
    if (prefix_.empty())
      value_error("Couldn't find 'checkpoint' file or checkpoints in given directory " + path);
  }
  if (!fs::exists(prefix_ + ".index", ec))
    throw_error(ErrorKind::kNotFound,
                "Unsuccessful TensorSliceReader constructor: Failed to find any matching files "
                "for " +
                    prefix_);
  bundle_ = std::make_unique<savedmodel::BundleReader>(prefix_);
}

CheckpointReader::~CheckpointReader() = default;

std::vector<VariableInfo> CheckpointReader::variables() const {
  std::vector<VariableInfo> out;
  for (const std::string& key : bundle_->keys()) {
    const savedmodel::BundleEntry& e = bundle_->entry(key);
    VariableInfo v;
    v.name = key;
    v.dtype = savedmodel::detail::dtype_from_proto(e.dtype, prefix_ + ": " + key);
    v.shape = e.shape;
    out.push_back(std::move(v));
  }
  return out;
}

bool CheckpointReader::has_tensor(const std::string& name) const {
  return bundle_->contains(name);
}

Tensor CheckpointReader::get_tensor(const std::string& name) const {
  if (!bundle_->contains(name))
    throw_error(ErrorKind::kNotFound, "Key " + name + " not found in checkpoint");
  return savedmodel::detail::tensor_from_bundle(bundle_->get(name), prefix_ + ": " + name);
}

std::vector<GraphNode> CheckpointReader::object_graph() const {
  const std::string key = "_CHECKPOINTABLE_OBJECT_GRAPH";
  if (!bundle_->contains(key))
    throw_error(ErrorKind::kNotFound, "The checkpoint at " + prefix_ +
                                          " has no object graph: it was written by name "
                                          "(tf.compat.v1.train.Saver), not by tf.train.Checkpoint");
  const Tensor t = get_tensor(key);
  tensorflow::TrackableObjectGraph graph;
  if (t.dtype() != DType::kString || t.num_elements() != 1 ||
      !graph.ParseFromString(t.string_values()[0]))
    value_error("The checkpoint at " + prefix_ + " has a damaged object graph");
  std::vector<GraphNode> out;
  for (const auto& n : graph.nodes()) {
    GraphNode g;
    for (const auto& c : n.children()) {
      if (c.node_id() < 0 || c.node_id() >= graph.nodes_size())
        value_error("The checkpoint at " + prefix_ + " has a damaged object graph");
      g.children.emplace_back(c.local_name(), c.node_id());
    }
    for (const auto& a : n.attributes()) {
      if (a.name() != "VARIABLE_VALUE") continue;
      g.full_name = a.full_name();
      g.checkpoint_key = a.checkpoint_key();
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace tfs::checkpoint
