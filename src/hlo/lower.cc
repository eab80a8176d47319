#include "lower.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "tfscope/errors.h"
#include "tfscope/passes.h"

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
  return target_.add(std::move(i));
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

// XlaBuilder::ConstantLiteral: a literal of more than one element, all equal, is a scalar constant
// broadcast; HLO text elides the elements of a literal of more than ten ("{...}").
Instr* Lowering::constant(const Tensor& t) {
  std::vector<int64_t> dims = t.eager_shape().dims();
  const int64_t n = t.num_elements();
  bool splat = n > 1;
  for (int64_t k = 1; splat && k < n; ++k) splat = element_literal(t, k) == element_literal(t, 0);
  if (splat) {
    Instr* scalar = scalar_constant(t.dtype(), element_literal(t, 0));
    return emit("broadcast", HloShape::array(t.dtype(), dims), {scalar}, ", dimensions={}");
  }
  int64_t k = 0;
  return emit("constant", HloShape::array(t.dtype(), dims), {}, {},
              n > 10 ? "{...}" : literal_text(t, dims, 0, k));
}

Instr* Lowering::scalar_constant(DType dt, const std::string& literal) {
  return emit("constant", HloShape::array(dt, {}), {}, {}, literal);
}

Instr* Lowering::operand(const XlaValue& v) {
  return v.instr ? v.instr : constant(*v.constant);
}

Instr* Lowering::broadcast_in_dim(Instr* x, const std::vector<int64_t>& out,
                                  const std::vector<int64_t>& mapping) {
  const std::string type = x->shape.type;
  auto shape = [&](const std::vector<int64_t>& dims) { return HloShape::array(type, dims); };
  // First the operand's dims placed at `mapping`, the size-1 ones kept (InDimBroadcast) ...
  std::vector<int64_t> in_dim = out;
  bool identity = x->shape.dims.size() == out.size();
  for (size_t i = 0; i < mapping.size(); ++i) {
    in_dim[static_cast<size_t>(mapping[i])] = x->shape.dims[i];
    identity = identity && mapping[i] == static_cast<int64_t>(i);
  }
  if (!(identity && in_dim == x->shape.dims))
    x = emit("broadcast", shape(in_dim), {x}, ", dimensions=" + format_ints(mapping));
  if (in_dim == out) return x;
  // ... then the size-1 dims that stretch reshaped away and broadcast (AddBroadcastSequence).
  std::vector<int64_t> kept_dims, kept;
  for (size_t i = 0; i < out.size(); ++i) {
    if (in_dim[i] == out[i]) {
      kept_dims.push_back(out[i]);
      kept.push_back(static_cast<int64_t>(i));
    }
  }
  if (kept_dims != in_dim) x = emit("reshape", shape(kept_dims), {x});
  return emit("broadcast", shape(out), {x}, ", dimensions=" + format_ints(kept));
}

Instr* Lowering::broadcast_to(const XlaValue& v, const std::vector<int64_t>& out) {
  Instr* x = operand(v);
  if (v.dims == out) return x;
  // Right-aligned: equal dims and size-1 dims map; a dim that divides its output dim becomes the
  // pair [I, O/I], flattened by the final reshape (XLA's broadcasting cannot tile).
  std::vector<int64_t> shape, mapping;
  auto in = v.dims.rbegin();
  for (auto o = out.rbegin(); o != out.rend(); ++o) {
    if (in == v.dims.rend()) {
      shape.push_back(*o);
      continue;
    }
    mapping.push_back(static_cast<int64_t>(shape.size()));
    if (*o == *in || *in == 1) {
      shape.push_back(*o);
    } else {
      shape.push_back(*in);
      shape.push_back(*o / *in);
    }
    ++in;
  }
  std::reverse(mapping.begin(), mapping.end());
  for (int64_t& d : mapping) d = static_cast<int64_t>(shape.size()) - d - 1;
  std::reverse(shape.begin(), shape.end());
  x = broadcast_in_dim(x, shape, mapping);
  if (shape != out) x = emit("reshape", HloShape::array(v.dtype, out), {x});
  return x;
}

const GraphFunction& Lowering::function(const std::string& name) const {
  for (const Lowering* l = this; l; l = l->caller_)
    if (const GraphFunction* f = l->fn_.graph->find_function(name)) return *f;
  throw Error(ErrorKind::kInternal, "[hlo] function " + name + " is not in the library");
}

std::string sanitized_name(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') c = '_';
  if (!s.empty() && !std::isalpha(static_cast<unsigned char>(s[0]))) s[0] = 'a';
  return s;
}

Computation* Lowering::reducer(const std::string& opcode, DType dt) {
  // Named after the node's full name ("cond/Sum" -> "cond_Sum-reduction").
  Computation* c = add_computation(sanitized_name(node_name) + "-reduction");
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

// tf2xla constant-folds the graph before lowering it: a stateless node whose inputs are all
// compile-time constants becomes constants, materialized at their users.
bool Lowering::fold(const Node& n) {
  if (!is_foldable_op(n) || !n.def->kernel) return false;
  std::vector<Tensor> inputs;
  for (const Output& in : n.inputs) {
    const XlaValue& v = get(in);
    if (!v.constant) return false;
    inputs.push_back(*v.constant);
  }
  std::vector<Tensor> outs;
  try {
    outs = run_kernel(*n.def, inputs, n.attrs, nullptr, n.name);
  } catch (const Error&) {
    return false;  // lowered as it is, as TF leaves a node it cannot fold
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    const Tensor* t = own(std::move(outs[i]));
    set({const_cast<Node*>(&n), static_cast<int>(i)},
        {nullptr, t, t->dtype(), t->eager_shape().dims()});
  }
  return true;
}

void Lowering::lower(const Node& n) {
  // XLA names instructions after the node's name without its name scope ("Gelu/mul" -> "mul").
  base = n.name.substr(n.name.rfind('/') + 1);
  node_name = n.name;
  meta = "op_type=\"" + n.op() + "\" op_name=\"" + n.name + "\"";
  const std::string& op = n.op();
  if (op == "Const") {
    const Tensor& t = attr_tensor(n.attrs, "value");
    set({const_cast<Node*>(&n), 0}, {nullptr, &t, t.dtype(), t.eager_shape().dims()});
  } else if (op == "Identity" || op == "NoOp" || op == "ReadVariableOp") {
    // A variable read is the variable's parameter itself.
    if (op != "NoOp") set({const_cast<Node*>(&n), 0}, get(n.inputs[0]));
  } else if (fold(n)) {
  } else if (!(lower_elementwise(*this, n) || lower_array(*this, n) || lower_reduction(*this, n) ||
               lower_nn(*this, n) || lower_index(*this, n) || lower_math(*this, n) ||
               lower_control(*this, n))) {
    throw Error(ErrorKind::kNotImplemented,
                "[hlo] op " + op + " (node " + n.name + ") is not lowered to HLO by tfscope yet");
  }
  base.clear();
  meta.clear();
  node_name.clear();
}

}  // namespace tfs::hlo::detail
