// Elementwise ops: binary arithmetic, logical ops and comparisons with XLA's explicit broadcasts,
// unary math, Cast, Select.
#include <map>

#include "lower.h"

namespace tfs::hlo::detail {

namespace {

Node* self(const Node& n) {
  return const_cast<Node*>(&n);
}

void set_result(Lowering& l, const Node& n, Instr* i) {
  l.set({self(n), 0}, {i, nullptr, n.output_dtypes[0], static_dims(n)});
}

const std::map<std::string, std::string>& binary_opcodes() {
  static const std::map<std::string, std::string> m = {
      {"AddV2", "add"},      {"Add", "add"},         {"Sub", "subtract"},    {"Mul", "multiply"},
      {"RealDiv", "divide"}, {"Maximum", "maximum"}, {"Minimum", "minimum"}, {"Pow", "power"},
      {"LogicalAnd", "and"}, {"LogicalOr", "or"},
  };
  return m;
}

const std::map<std::string, std::string>& compare_directions() {
  static const std::map<std::string, std::string> m = {{"Greater", "GT"}, {"GreaterEqual", "GE"},
                                                       {"Less", "LT"},    {"LessEqual", "LE"},
                                                       {"Equal", "EQ"},   {"NotEqual", "NE"}};
  return m;
}

const std::map<std::string, std::string>& unary_opcodes() {
  static const std::map<std::string, std::string> m = {
      {"Neg", "negate"}, {"Abs", "abs"},        {"Exp", "exponential"}, {"Log", "log"},
      {"Tanh", "tanh"},  {"Sqrt", "sqrt"},      {"Rsqrt", "rsqrt"},     {"Sigmoid", "logistic"},
      {"Erf", "erf"},    {"LogicalNot", "not"},
  };
  return m;
}

}  // namespace

bool lower_elementwise(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  auto bin = binary_opcodes().find(op);
  auto cmp = compare_directions().find(op);
  if (bin != binary_opcodes().end() || cmp != compare_directions().end()) {
    std::vector<int64_t> out = static_dims(n);
    Instr* a = l.broadcast_to(l.get(n.inputs[0]), out);
    Instr* b = l.broadcast_to(l.get(n.inputs[1]), out);
    if (bin != binary_opcodes().end()) {
      set_result(l, n, l.emit(bin->second, HloShape::array(n.output_dtypes[0], out), {a, b}));
    } else {
      set_result(l, n,
                 l.emit("compare", HloShape::array(DType::kBool, out), {a, b},
                        ", direction=" + cmp->second));
    }
    return true;
  }
  auto un = unary_opcodes().find(op);
  if (un != unary_opcodes().end()) {
    Instr* x = l.operand(l.get(n.inputs[0]));
    set_result(l, n, l.emit(un->second, HloShape::array(n.output_dtypes[0], static_dims(n)), {x}));
    return true;
  }
  if (op == "Square") {
    Instr* x = l.operand(l.get(n.inputs[0]));
    set_result(l, n,
               l.emit("multiply", HloShape::array(n.output_dtypes[0], static_dims(n)), {x, x}));
    return true;
  }
  if (op == "Reciprocal") {  // 1 / x, the one broadcast first
    const XlaValue& in = l.get(n.inputs[0]);
    std::vector<int64_t> out = static_dims(n);
    Instr* one = l.broadcast_to({l.scalar_constant(in.dtype, "1"), nullptr, in.dtype, {}}, out);
    set_result(l, n, l.emit("divide", HloShape::array(in.dtype, out), {one, l.operand(in)}));
    return true;
  }
  if (op == "Cast") {
    Instr* x = l.operand(l.get(n.inputs[0]));
    set_result(l, n, l.emit("convert", HloShape::array(n.output_dtypes[0], static_dims(n)), {x}));
    return true;
  }
  if (op == "SelectV2" || op == "Select") {
    std::vector<int64_t> out = static_dims(n);
    Instr* c = l.broadcast_to(l.get(n.inputs[0]), out);
    Instr* t = l.broadcast_to(l.get(n.inputs[1]), out);
    Instr* e = l.broadcast_to(l.get(n.inputs[2]), out);
    set_result(l, n, l.emit("select", HloShape::array(n.output_dtypes[0], out), {c, t, e}));
    return true;
  }
  return false;
}

}  // namespace tfs::hlo::detail
