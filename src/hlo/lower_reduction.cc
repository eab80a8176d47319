// Sum, Prod, Max, Min, Mean, All, Any as tf2xla's XlaReductionOp emits them: the input converted to the
// accumulation type, the initial value as a converted constant, a reduce over the given axes with
// a `<node>-reduction` computation, Mean's division by the count, the result converted back, and a
// reshape for keep_dims. ArgMax/ArgMin as XLA's ArgMinMax: a variadic reduce of (value, iota index)
// pairs with a `minmax_func` comparator that keeps the lowest index on ties.
#include <algorithm>
#include <limits>

#include "lower.h"
#include "tfscope/errors.h"

namespace tfs::hlo::detail {

namespace {

std::string initial_value(const std::string& op, DType dt) {
  if (op == "Sum" || op == "Mean") return "0";
  if (op == "Prod") return "1";
  if (op == "All") return "true";
  if (op == "Any") return "false";
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
  if (op == "All") return "and";
  if (op == "Any") return "or";
  return "add";
}

// XLA's minmax_func: (lhs_value, lhs_index, rhs_value, rhs_index) -> the winning pair.
Computation* minmax_func(Lowering& l, DType value_type, bool is_min) {
  Computation* c = l.add_computation("minmax_func");
  auto add = [&](std::string base, std::string opcode, DType dt, std::vector<Instr*> operands,
                 std::string attrs = {}, std::string literal = {}) {
    Instr i;
    i.base = std::move(base);
    i.opcode = std::move(opcode);
    i.shape = HloShape::array(dt, {});
    i.operands = std::move(operands);
    i.attrs = std::move(attrs);
    i.literal = std::move(literal);
    return c->add(std::move(i));
  };
  Instr* lv = add("lhs_value", "parameter", value_type, {}, {}, "0");
  Instr* li = add("lhs_index", "parameter", DType::kInt32, {}, {}, "1");
  Instr* rv = add("rhs_value", "parameter", value_type, {}, {}, "2");
  Instr* ri = add("rhs_index", "parameter", DType::kInt32, {}, {}, "3");
  Instr* wins = add("compare", "compare", DType::kBool, {lv, rv},
                    std::string(", direction=") + (is_min ? "LE" : "GE"));
  Instr* value = add("select", "select", value_type, {wins, lv, rv});
  Instr* tie = add("compare", "compare", DType::kBool, {lv, rv}, ", direction=EQ");
  Instr* lowest = add("minimum", "minimum", DType::kInt32, {li, ri});
  Instr* index = add("select", "select", DType::kInt32, {wins, li, ri});
  index = add("select", "select", DType::kInt32, {tie, lowest, index});
  Instr t;
  t.base = "tuple";
  t.opcode = "tuple";
  t.shape = HloShape::tuple({value->shape, index->shape});
  t.operands = {value, index};
  c->add(std::move(t));
  return c;
}

bool lower_arg_min_max(Lowering& l, const Node& n) {
  const bool is_min = n.op() == "ArgMin";
  const XlaValue& in = l.get(n.inputs[0]);
  int64_t axis = constant_ints(l, n, 1).at(0);
  if (axis < 0) axis += static_cast<int64_t>(in.dims.size());
  std::vector<int64_t> out = static_dims(n);
  Instr* iota = l.emit("iota", HloShape::array(DType::kInt32, in.dims), {},
                       ", iota_dimension=" + std::to_string(axis));
  Instr* init = l.scalar_constant(in.dtype, initial_value(is_min ? "Min" : "Max", in.dtype));
  Instr* zero = l.scalar_constant(DType::kInt32, "0");
  Instr* r =
      l.emit("reduce",
             HloShape::tuple({HloShape::array(in.dtype, out), HloShape::array(DType::kInt32, out)}),
             {l.operand(in), iota, init, zero}, ", dimensions={" + std::to_string(axis) + "}");
  r->to_apply = minmax_func(l, in.dtype, is_min);
  r = l.emit("get-tuple-element", HloShape::array(DType::kInt32, out), {r}, ", index=1");
  if (n.output_dtypes[0] != DType::kInt32)
    r = l.emit("convert", HloShape::array(n.output_dtypes[0], out), {r});
  l.set({const_cast<Node*>(&n), 0}, {r, nullptr, n.output_dtypes[0], out});
  return true;
}

}  // namespace

bool lower_reduction(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  if (op == "ArgMax" || op == "ArgMin") return lower_arg_min_max(l, n);
  if (op != "Sum" && op != "Prod" && op != "Max" && op != "Min" && op != "Mean" && op != "All" &&
      op != "Any")
    return false;
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
