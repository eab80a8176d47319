// tf.train.Checkpoint's files (tfscope/checkpoint.h): the variables by object path and the object
// graph, numbered and built as the SavedModel writer does (trackable_graph.h).
#include <filesystem>

#include "graph_convert.h"
#include "tfscope/checkpoint.h"
#include "tfscope/errors.h"
#include "tfscope/tensor_bundle.h"
#include "tfscope/variable_state.h"
#include "trackable_graph.h"

namespace tfs::checkpoint {

namespace sd = savedmodel::detail;

void write(const std::string& prefix, const std::vector<CheckpointObject>& objects) {
  if (objects.empty()) value_error("a checkpoint needs a root object");
  sd::ObjectChildren children;
  for (const CheckpointObject& o : objects) {
    for (const auto& [name, c] : o.children)
      if (c < 0 || c >= static_cast<int>(objects.size()))
        value_error("checkpoint object child '" + name + "' is out of range");
    children.push_back(o.children);
  }
  const sd::BreadthFirst numbered = sd::number_breadth_first(children);
  std::vector<std::string> full_names(objects.size());
  std::vector<savedmodel::BundleTensor> tensors;
  for (size_t k = 0; k < numbered.order.size(); ++k) {
    const auto i = static_cast<size_t>(numbered.order[k]);
    const VariableState* v = objects[i].variable.get();
    if (!v) continue;
    std::string name = v->name();
    if (auto colon = name.rfind(':'); colon != std::string::npos) name.resize(colon);
    full_names[i] = name;
    tensors.push_back(sd::tensor_to_bundle(sd::checkpoint_key(numbered.path[k]), v->read()));
  }
  const tensorflow::TrackableObjectGraph graph =
      sd::trackable_object_graph(children, numbered, [&](int i) -> const std::string* {
        return objects[static_cast<size_t>(i)].variable ? &full_names[static_cast<size_t>(i)]
                                                        : nullptr;
      });
  tensors.push_back(sd::tensor_to_bundle("_CHECKPOINTABLE_OBJECT_GRAPH",
                                         Tensor::string_scalar(graph.SerializeAsString())));
  const std::filesystem::path dir = std::filesystem::path(prefix).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec)
    value_error("cannot create the checkpoint directory " + dir.string() + ": " + ec.message());
  savedmodel::write_bundle(prefix, tensors);
}

}  // namespace tfs::checkpoint
