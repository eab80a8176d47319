// Shape ops: Reshape, ExpandDims and Squeeze become reshape; Transpose a transpose whose result
// keeps the operand's physical order (its layout is the permuted one), as XLA's builder makes it;
// ConcatV2 and Pack a concatenate; Tile XLA's BroadcastTo; Fill a broadcast.
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
  if (op == "ConcatV2") {
    const int num = static_cast<int>(n.inputs.size()) - 1;
    std::vector<int64_t> out = static_dims(n);
    int64_t axis = constant_ints(l, n, num).at(0);
    if (axis < 0) axis += static_cast<int64_t>(out.size());
    std::vector<Instr*> parts;
    for (int i = 0; i < num; ++i)
      parts.push_back(l.operand(l.get(n.inputs[static_cast<size_t>(i)])));
    l.set({self, 0}, {l.emit("concatenate", HloShape::array(n.output_dtypes[0], out), parts,
                             ", dimensions={" + std::to_string(axis) + "}"),
                      nullptr, n.output_dtypes[0], out});
    return true;
  }
  if (op == "Pack") {  // each input reshaped to have the new axis, then concatenated along it
    std::vector<int64_t> out = static_dims(n);
    int64_t axis = attr_int_or(n.attrs, "axis", 0);
    if (axis < 0) axis += static_cast<int64_t>(out.size());
    std::vector<Instr*> parts;
    for (const Output& in : n.inputs) {
      const XlaValue& v = l.get(in);
      std::vector<int64_t> dims = v.dims;
      dims.insert(dims.begin() + axis, 1);
      parts.push_back(l.emit("reshape", HloShape::array(v.dtype, dims), {l.operand(v)}));
    }
    l.set({self, 0}, {l.emit("concatenate", HloShape::array(n.output_dtypes[0], out), parts,
                             ", dimensions={" + std::to_string(axis) + "}"),
                      nullptr, n.output_dtypes[0], out});
    return true;
  }
  if (op == "Tile") {
    std::vector<int64_t> out = static_dims(n);
    Instr* x = l.broadcast_to(l.get(n.inputs[0]), out);
    l.set({self, 0}, {x, nullptr, n.output_dtypes[0], out});
    return true;
  }
  if (op == "Fill") {  // of a run-time value (a constant one is folded)
    std::vector<int64_t> out = static_dims(n);
    const XlaValue& v = l.get(n.inputs[1]);
    Instr* x =
        l.emit("broadcast", HloShape::array(v.dtype, out), {l.operand(v)}, ", dimensions={}");
    l.set({self, 0}, {x, nullptr, v.dtype, out});
    return true;
  }
  return false;
}

}  // namespace tfs::hlo::detail
