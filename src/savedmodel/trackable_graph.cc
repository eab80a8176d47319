#include "trackable_graph.h"

#include <deque>

namespace tfs::savedmodel::detail {

BreadthFirst number_breadth_first(const ObjectChildren& children) {
  BreadthFirst bf;
  bf.id.assign(children.size(), -1);
  if (children.empty()) return bf;
  bf.id[0] = 0;
  bf.order.push_back(0);
  bf.path.emplace_back();
  std::deque<int> queue{0};
  while (!queue.empty()) {
    const int i = queue.front();
    queue.pop_front();
    for (const auto& [name, c] : children[static_cast<size_t>(i)]) {
      if (bf.id[static_cast<size_t>(c)] >= 0) continue;
      bf.id[static_cast<size_t>(c)] = static_cast<int>(bf.order.size());
      bf.order.push_back(c);
      const std::string& parent = bf.path[static_cast<size_t>(bf.id[static_cast<size_t>(i)])];
      bf.path.push_back(parent.empty() ? name : parent + "/" + name);
      queue.push_back(c);
    }
  }
  return bf;
}

std::string checkpoint_key(const std::string& path) {
  return path + "/.ATTRIBUTES/VARIABLE_VALUE";
}

tensorflow::TrackableObjectGraph trackable_object_graph(
    const ObjectChildren& children, const BreadthFirst& numbered,
    const std::function<const std::string*(int object)>& full_name) {
  const std::vector<int>& order = numbered.order;
  std::vector<bool> has_values(order.size(), false);
  for (size_t k = order.size(); k-- > 0;) {
    bool v = full_name(order[k]) != nullptr;
    for (const auto& [name, c] : children[static_cast<size_t>(order[k])])
      v = v || has_values[static_cast<size_t>(numbered.id[static_cast<size_t>(c)])];
    has_values[k] = v;
  }
  tensorflow::TrackableObjectGraph graph;
  for (size_t k = 0; k < order.size(); ++k) {
    auto* node = graph.add_nodes();
    for (const auto& [name, c] : children[static_cast<size_t>(order[k])]) {
      auto* ref = node->add_children();
      ref->set_node_id(numbered.id[static_cast<size_t>(c)]);
      ref->set_local_name(name);
    }
    if (const std::string* full = full_name(order[k])) {
      auto* attr = node->add_attributes();
      attr->set_name("VARIABLE_VALUE");
      attr->set_full_name(*full);
      attr->set_checkpoint_key(checkpoint_key(numbered.path[k]));
    }
    node->mutable_has_checkpoint_values()->set_value(has_values[k]);
  }
  return graph;
}

}  // namespace tfs::savedmodel::detail
