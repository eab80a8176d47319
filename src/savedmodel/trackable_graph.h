// The object graph TF keeps in a checkpoint (_CHECKPOINTABLE_OBJECT_GRAPH, a TrackableObjectGraph),
// one place for both writers: tf.train.Checkpoint (tfscope/checkpoint.h) and the variables of a
// SavedModel (saved_model_export_objects.cc).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/proto/trackable_object_graph.pb.h"

namespace tfs::savedmodel::detail {

// Each object's children: (local name, index of the child object); object 0 is the root.
using ObjectChildren = std::vector<std::vector<std::pair<std::string, int>>>;

// TF's numbering of an object graph: breadth-first from the root, children in their order, an
// object reached twice keeping its first id and path.
struct BreadthFirst {
  std::vector<int> id;            // object index -> node id (-1: not reachable)
  std::vector<int> order;         // node id -> object index
  std::vector<std::string> path;  // node id -> local names from the root, joined by "/"
};
BreadthFirst number_breadth_first(const ObjectChildren& children);

// "<path>/.ATTRIBUTES/VARIABLE_VALUE": where a variable's value is kept.
std::string checkpoint_key(const std::string& path);

// The TrackableObjectGraph of numbered objects: each node's children by node id; a variable's
// node (full_name(object) non-null) its VARIABLE_VALUE attribute (full name and checkpoint key);
// has_checkpoint_values set where a variable is reachable from the node.
tensorflow::TrackableObjectGraph trackable_object_graph(
    const ObjectChildren& children, const BreadthFirst& numbered,
    const std::function<const std::string*(int object)>& full_name);

}  // namespace tfs::savedmodel::detail
