// Shape ops: Reshape, ExpandDims and Squeeze become reshape; Transpose a transpose whose result
// keeps the operand's physical order (its layout is the permuted one), as XLA's builder makes it.
#include "lower.h"

namespace tfs::hlo::detail {

bool lower_array(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  Node* self = const_cast<Node*>(&n);
  if (op == "Reshape" || op == "ExpandDims" || op == "Squeeze") {
    Instr* x = l.operand(l.get(n.inputs[0]));
    std::vector<int64_t> out = static_dims(n);
    l.set({self, 0}, {l.emit("reshape", HloShape::array(n.output_dtypes[0], out), {x}), nullptr,
                      n.output_dtypes[0], out});
    return true;
  }
  if (op == "Transpose") {
    std::vector<int64_t> perm = constant_ints(l, n, 1);
    Instr* x = l.operand(l.get(n.inputs[0]));
    std::vector<int64_t> out = static_dims(n);
    HloShape shape = HloShape::array(n.output_dtypes[0], out);
    // Output dimension j is operand dimension perm[j]: the same memory order, renamed.
    shape.layout.clear();
    for (int64_t d : x->shape.layout)
      for (size_t j = 0; j < perm.size(); ++j)
        if (perm[j] == d) shape.layout.push_back(static_cast<int64_t>(j));
    l.set({self, 0}, {l.emit("transpose", shape, {x}, ", dimensions=" + format_ints(perm)), nullptr,
                      n.output_dtypes[0], out});
    return true;
  }
  return false;
}

}  // namespace tfs::hlo::detail
