// Erfc as XLA's math library expands it for f32: 1 - erf(x) by an odd polynomial in x for |x| <= 1,
// else exp(-x^2) times a rational function of 1/x^2 (the denominator's |x| clamped at 10.06),
// reflected for negative x. Coefficients as XLA prints them (exact f32 values).
#include "lower.h"
#include "tfscope/errors.h"

namespace tfs::hlo::detail {

namespace {

struct Expander {
  Lowering& l;
  std::vector<int64_t> dims;
  DType dt;

  HloShape shape(DType t) const { return HloShape::array(t, dims); }
  Instr* scalar(const char* literal) {  // ScalarLike: a constant broadcast to x's shape
    return l.broadcast_to({l.scalar_constant(dt, literal), nullptr, dt, {}}, dims);
  }
  Instr* op(const char* opcode, Instr* a, Instr* b) { return l.emit(opcode, shape(dt), {a, b}); }
  Instr* unary(const char* opcode, Instr* a) { return l.emit(opcode, shape(dt), {a}); }
  Instr* compare(Instr* a, Instr* b, const char* dir) {
    return l.emit("compare", shape(DType::kBool), {a, b}, std::string(", direction=") + dir);
  }
  // Horner's rule from the highest coefficient: c0*x + c1, then (..)*x + c2, ...
  Instr* polynomial(Instr* x, std::initializer_list<const char*> coefficients) {
    auto it = coefficients.begin();
    Instr* p = scalar(*it++);
    for (; it != coefficients.end(); ++it) p = op("add", op("multiply", p, x), scalar(*it));
    return p;
  }
};

}  // namespace

bool lower_math(Lowering& l, const Node& n) {
  if (n.op() != "Erfc") return false;
  const XlaValue& in = l.get(n.inputs[0]);
  if (in.dtype != DType::kFloat32)
    throw Error(ErrorKind::kNotImplemented,
                "[hlo] Erfc over " + std::string(dtype_name(in.dtype)) + " is not lowered yet");
  Expander e{l, in.dims, in.dtype};
  Instr* x = l.operand(in);
  Instr* large = e.compare(e.unary("abs", x), e.scalar("1"), "GT");
  Instr* negative = e.compare(x, e.scalar("0"), "LT");
  Instr* two = e.scalar("2");
  Instr* xx = e.op("multiply", x, x);
  Instr* z = e.unary("exponential", e.unary("negate", xx));
  Instr* q = e.op("divide", e.scalar("1"), xx);
  Instr* num = e.polynomial(q, {"0.102081165", "0.429206669", "0.323790789", "0.053971976"});
  Instr* clamped = e.op("minimum", e.unary("abs", x), e.scalar("10.06"));
  Instr* den = e.polynomial(q, {"0.0172516778", "0.391371638", "1", "0.621732414", "0.0956628621"});
  Instr* tail = e.op("multiply", z, e.op("divide", num, e.op("multiply", clamped, den)));
  Instr* reflected =
      l.emit("select", e.shape(in.dtype), {negative, e.op("subtract", two, tail), tail});
  Instr* x2 = e.op("multiply", x, x);
  Instr* erf_poly = e.polynomial(x2, {"0.000561802299", "-0.00491381669", "0.0267075151",
                                      "-0.112800106", "0.376122952", "-1.12837911"});
  Instr* near = e.op("add", e.op("multiply", x, erf_poly), e.scalar("1"));
  Instr* r = l.emit("select", e.shape(in.dtype), {large, reflected, near});
  l.set({const_cast<Node*>(&n), 0}, {r, nullptr, in.dtype, in.dims});
  return true;
}

}  // namespace tfs::hlo::detail
