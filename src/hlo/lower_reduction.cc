// Sum, Prod, Max, Min, Mean as tf2xla's XlaReductionOp emits them: the input converted to the
// accumulation type, the initial value as a converted constant, a reduce over the given axes with
// a `<node>-reduction` computation, Mean's division by the count, the result converted back, and a
// reshape for keep_dims.
#include <algorithm>
#include <limits>

#include "lower.h"
#include "tfscope/errors.h"

namespace tfs::hlo::detail {

namespace {

std::string initial_value(const std::string& op, DType dt) {
  if (op == "Sum" || op == "Mean") return "0";
  if (op == "Prod") return "1";
  bool max = op == "Max";
  if (is_floating(dt)) return max ? "-inf" : "inf";
  switch (dt) {
    case DType::kInt32:
      return std::to_string(max ? std::numeric_limits<int32_t>::min()
                                : std::numeric_limits<int32_t>::max());
    case DType::kInt64:
      return std::to_string(max ? std::numeric_limits<int64_t>::min()
                                : std::numeric_limits<int64_t>::max());
    default:
      break;
  }
  throw Error(ErrorKind::kNotImplemented, "[hlo] " + op + " over " + std::string(dtype_name(dt)) +
                                              " is not lowered to HLO yet");
}

std::string reducer_opcode(const std::string& op) {
  if (op == "Prod") return "multiply";
  if (op == "Max") return "maximum";
  if (op == "Min") return "minimum";
  return "add";
}

}  // namespace

bool lower_reduction(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  if (op != "Sum" && op != "Prod" && op != "Max" && op != "Min" && op != "Mean") return false;
  const XlaValue& in = l.get(n.inputs[0]);
  const DType dt = in.dtype;
  const int64_t rank = static_cast<int64_t>(in.dims.size());
  // The reduced dimensions in the order the axes were given (negative ones counted from the end).
  std::vector<int64_t> reduced;
  for (int64_t a : constant_ints(l, n, 1)) {
    int64_t d = a < 0 ? a + rank : a;
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end()) reduced.push_back(d);
  }
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (std::find(reduced.begin(), reduced.end(), d) == reduced.end())
      kept.push_back(in.dims[static_cast<size_t>(d)]);
  Instr* x = l.emit("convert", HloShape::array(dt, in.dims), {l.operand(in)});
  Instr* init =
      l.emit("convert", HloShape::array(dt, {}), {l.scalar_constant(dt, initial_value(op, dt))});
  Computation* reducer = l.reducer(reducer_opcode(op), dt);
  Instr* r = l.emit("reduce", HloShape::array(dt, kept), {x, init},
                    ", dimensions=" + format_ints(reduced));
  r->to_apply = reducer;
  if (op == "Mean") {
    // The count: the reduced dimensions' sizes multiplied as s32 constants, then converted.
    Instr* n_elems = nullptr;
    for (int64_t d : reduced) {
      Instr* size =
          l.scalar_constant(DType::kInt32, std::to_string(in.dims[static_cast<size_t>(d)]));
      n_elems =
          n_elems ? l.emit("multiply", HloShape::array(DType::kInt32, {}), {n_elems, size}) : size;
    }
    if (!n_elems) n_elems = l.scalar_constant(DType::kInt32, "1");
    Instr* c = l.emit("convert", HloShape::array(dt, {}), {n_elems});
    Instr* divisor = l.broadcast_to({c, nullptr, dt, {}}, kept);
    r = l.emit("divide", HloShape::array(dt, kept), {r, divisor});
  }
  r = l.emit("convert", HloShape::array(n.output_dtypes[0], kept), {r});
  std::vector<int64_t> out = static_dims(n);
  if (out != kept) r = l.emit("reshape", HloShape::array(n.output_dtypes[0], out), {r});
  l.set({const_cast<Node*>(&n), 0}, {r, nullptr, n.output_dtypes[0], out});
  return true;
}

}  // namespace tfs::hlo::detail
