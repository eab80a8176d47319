// The meta-optimizer: TF 2.21's default passes over a function graph, two iterations, in its order
// (model_pruner, common_subgraph_elimination, constant_folding, arithmetic_optimizer,
// dependency_optimizer; the others TF runs change nothing tfscope computes).
#include <cstdlib>
#include <cstring>

#include "passes.h"

namespace tfs::grappler {

bool enabled() {
  static const bool on = [] {
    const char* v = std::getenv("TFSCOPE_GRAPPLER");
    return !(v && std::strcmp(v, "0") == 0);
  }();
  return on;
}

Item optimize(std::shared_ptr<const Graph> graph, std::vector<Node*> feeds,
              std::vector<Output> fetches, std::vector<Node*> targets) {
  Item same{graph, feeds, fetches, targets};
  if (!enabled()) return same;
  // TF skips graphs of fewer than 4 nodes (kDefaultMinGraphNodes), counting _Arg and _Retval.
  if (static_cast<size_t>(graph->num_nodes()) + fetches.size() < 4) return same;
  MGraph g(*graph, feeds, fetches, targets);
  g.prune_unreachable();
  g.changed = false;
  for (int iteration = 0; iteration < 2; ++iteration) {
    model_pruner(g);
    common_subgraph_elimination(g);
    constant_folding(g);
    arithmetic_optimizer(g);
    remapper(g);
    dependency_optimizer(g);
  }
  annotate_add_n_forwarding(g);
  if (!g.changed) return same;
  return g.emit(*graph);
}

}  // namespace tfs::grappler
