#include "lower.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "tfscope/errors.h"

namespace tfs::hlo::detail {

std::string format_ints(const std::vector<int64_t>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out + "}";
}

std::vector<int64_t> static_dims(const Node& n, int output) {
  const PartialShape& s = n.output_shapes[static_cast<size_t>(output)];
  if (!s.is_fully_defined())
    throw Error(ErrorKind::kNotImplemented, "[hlo] node " + n.name + " (" + n.op() +
                                                ") has no static shape; XLA needs static shapes");
  return s.dims();
}

const XlaValue& Lowering::get(const Output& out) const {
  auto it = values_.find({out.node, out.index});
  if (it == values_.end())
    throw Error(ErrorKind::kInternal, "[hlo] input " + out.node->name + " is not lowered yet");
  return it->second;
}

std::vector<int64_t> constant_ints(const Lowering& l, const Node& n, int input) {
  const XlaValue& v = l.get(n.inputs[static_cast<size_t>(input)]);
  if (!v.constant)
    throw Error(ErrorKind::kNotImplemented, "[hlo] " + n.op() + " " + n.name + ": input " +
                                                std::to_string(input) +
                                                " must be a compile-time constant");
  if (v.constant->dtype() == DType::kInt64) return v.constant->to_vector<int64_t>();
  std::vector<int64_t> out;
  for (int32_t x : v.constant->to_vector<int32_t>()) out.push_back(x);
  return out;
}

Instr* Lowering::emit(std::string opcode, HloShape shape, std::vector<Instr*> operands,
                      std::string attrs, std::string literal) {
  Instr i;
  i.base = base.empty() ? opcode : base;
  i.opcode = std::move(opcode);
  i.shape = std::move(shape);
  i.operands = std::move(operands);
  i.attrs = std::move(attrs);
  i.literal = std::move(literal);
  i.metadata = options_.metadata ? meta : std::string();
  return entry_.add(std::move(i));
}

// XLA's literal text for a float: the value with digits10 significant digits (%g) where that
// reads back exactly, else with max_digits10 (0.1 -> "0.1", 1/sqrt(2) -> "0.707106769").
template <typename T>
static std::string float_literal(T x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", std::numeric_limits<T>::digits10, static_cast<double>(x));
  T back{};
  std::from_chars(buf, buf + std::strlen(buf), back);
  if (back != x || std::signbit(back) != std::signbit(x))
    std::snprintf(buf, sizeof buf, "%.*g", std::numeric_limits<T>::max_digits10,
                  static_cast<double>(x));
  return buf;
}

static std::string element_literal(const Tensor& t, int64_t k) {
  switch (t.dtype()) {
    case DType::kFloat32:
      return float_literal(t.data<float>()[k]);
    case DType::kFloat64:
      return float_literal(t.data<double>()[k]);
    case DType::kInt32:
      return std::to_string(t.data<int32_t>()[k]);
    case DType::kInt64:
      return std::to_string(t.data<int64_t>()[k]);
    case DType::kInt16:
      return std::to_string(t.data<int16_t>()[k]);
    case DType::kInt8:
      return std::to_string(t.data<int8_t>()[k]);
    case DType::kUInt8:
      return std::to_string(t.data<uint8_t>()[k]);
    case DType::kBool:
      return t.data<bool>()[k] ? "true" : "false";
    default:
      break;
  }
  throw Error(ErrorKind::kNotImplemented,
              "[hlo] no XLA literal for dtype " + std::string(dtype_name(t.dtype())));
}

// XLA's literal text: "1" for a scalar, "{1, 2, 3}" for a vector, "{ { 1, 2 }, { 3, 4 } }"
// above.
static std::string literal_text(const Tensor& t, const std::vector<int64_t>& dims, size_t axis,
                                int64_t& k) {
  if (axis == dims.size()) return element_literal(t, k++);
  bool innermost = axis + 1 == dims.size();
  std::string out = innermost && dims.size() == 1 ? "{" : "{ ";
  for (int64_t i = 0; i < dims[axis]; ++i) {
    if (i) out += ", ";
    out += literal_text(t, dims, axis + 1, k);
  }
  return out + (innermost && dims.size() == 1 ? "}" : " }");
}

Instr* Lowering::constant(const Tensor& t) {
  std::vector<int64_t> dims = t.eager_shape().dims();
  int64_t k = 0;
  return emit("constant", HloShape::array(t.dtype(), dims), {}, {}, literal_text(t, dims, 0, k));
}

Instr* Lowering::scalar_constant(DType dt, const std::string& literal) {
  return emit("constant", HloShape::array(dt, {}), {}, {}, literal);
}

Instr* Lowering::operand(const XlaValue& v) {
  return v.instr ? v.instr : constant(*v.constant);
}

Instr* Lowering::broadcast_to(const XlaValue& v, const std::vector<int64_t>& out) {
  Instr* x = operand(v);
  if (v.dims == out) return x;
  const size_t r = v.dims.size(), R = out.size();
  std::vector<int64_t> kept_dims, mapped;
  for (size_t i = 0; i < r; ++i) {
    if (v.dims[i] == out[R - r + i]) {
      kept_dims.push_back(v.dims[i]);
      mapped.push_back(static_cast<int64_t>(R - r + i));
    }
  }
  if (kept_dims.size() < r) x = emit("reshape", HloShape::array(v.dtype, kept_dims), {x});
  return emit("broadcast", HloShape::array(v.dtype, out), {x},
              ", dimensions=" + format_ints(mapped));
}

Computation* Lowering::add_computation(std::string cbase) {
  Computation* c = module_.add_computation(std::move(cbase));
  // Printed before the entry computation, in the order they were made.
  std::rotate(module_.computations.end() - 2, module_.computations.end() - 1,
              module_.computations.end());
  return c;
}

Computation* Lowering::reducer(const std::string& opcode, DType dt) {
  Computation* c = add_computation(base + "-reduction");
  auto param = [&](const char* name, int index) {
    Instr i;
    i.base = name;
    i.opcode = "parameter";
    i.shape = HloShape::array(dt, {});
    i.literal = std::to_string(index);
    return c->add(std::move(i));
  };
  Instr* x = param("x", 0);
  Instr* y = param("y", 1);
  Instr r;
  r.base = opcode;
  r.opcode = opcode;
  r.shape = HloShape::array(dt, {});
  r.operands = {x, y};
  c->add(std::move(r));
  return c;
}

bool xla_has_kernel(const Node& n) {
  for (const Output& in : n.inputs)
    if (in.node->output_dtypes[static_cast<size_t>(in.index)] == DType::kString) return false;
  for (DType dt : n.output_dtypes)
    if (dt == DType::kString) return false;
  return true;
}

void Lowering::lower(const Node& n) {
  base = n.name;
  meta = "op_type=\"" + n.op() + "\" op_name=\"" + n.name + "\"";
  const std::string& op = n.op();
  if (op == "Const") {
    const Tensor& t = attr_tensor(n.attrs, "value");
    set({const_cast<Node*>(&n), 0}, {nullptr, &t, t.dtype(), t.eager_shape().dims()});
  } else if (op == "Identity" || op == "NoOp") {
    if (op == "Identity") set({const_cast<Node*>(&n), 0}, get(n.inputs[0]));
  } else if (!(lower_elementwise(*this, n) || lower_array(*this, n) || lower_reduction(*this, n) ||
               lower_nn(*this, n))) {
    throw Error(ErrorKind::kNotImplemented,
                "[hlo] op " + op + " (node " + n.name + ") is not lowered to HLO by tfscope yet");
  }
  base.clear();
  meta.clear();
}

}  // namespace tfs::hlo::detail
