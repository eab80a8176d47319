#include "plan_run.h"

namespace tfs::detail {

namespace {
// How deep the plan now running on this thread is nested, counted only while a profile records.
thread_local int profile_depth = 0;
}  // namespace

Error at_node(const Error& err, const std::string& node) {
  std::string msg = err.what();
  if (msg.find("[[{{node ") == std::string::npos) msg += "\n\t [[{{node " + node + "}}]]";
  return Error(err.kind(), msg);
}

ProfileDepth::ProfileDepth(OpProfile* p) : on_(p != nullptr) {
  if (on_) ++profile_depth;
}

ProfileDepth::~ProfileDepth() {
  if (on_) --profile_depth;
}

void run_timed(OpProfile& prof, const Node& node, const OpDef& def, const Kernel& kernel,
               const std::string& function, OpKernelContext& ctx) {
  int64_t t0 = prof.now_ns();
  struct Done {
    ~Done() {
      OpEvent e;
      e.node = node.name;
      e.op = def.name;
      e.function = function;
      e.depth = profile_depth - 1;
      e.thread = prof.thread_number();
      e.start_ns = t0;
      e.dur_ns = prof.now_ns() - t0;
      prof.add(std::move(e));
    }
    OpProfile& prof;
    const Node& node;
    const OpDef& def;
    const std::string& function;
    int64_t t0;
  } done{prof, node, def, function, t0};
  kernel(ctx);
}

}  // namespace tfs::detail
