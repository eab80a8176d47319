// MatMul as dot with contracting dimensions (and tf2xla's identity transpose after it), BiasAdd,
// Relu/Relu6 against broadcast constants, and Softmax as TF's MLIR legalization writes it.
#include "lower.h"
#include "tfscope/errors.h"

namespace tfs::hlo::detail {

namespace {

Node* self(const Node& n) {
  return const_cast<Node*>(&n);
}

std::string bool_text(bool b) {
  return b ? "\"true\"" : "\"false\"";
}

std::vector<int64_t> iota(size_t n) {
  std::vector<int64_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(i);
  return v;
}

void lower_matmul(Lowering& l, const Node& n) {
  Instr* a = l.operand(l.get(n.inputs[0]));
  Instr* b = l.operand(l.get(n.inputs[1]));
  const bool ta = attr_bool_or(n.attrs, "transpose_a", false);
  const bool tb = attr_bool_or(n.attrs, "transpose_b", false);
  std::vector<int64_t> out = static_dims(n);
  HloShape shape = HloShape::array(n.output_dtypes[0], out);
  std::string attrs =
      ", lhs_contracting_dims={" + std::to_string(ta ? 0 : 1) + "}, rhs_contracting_dims={" +
      std::to_string(tb ? 1 : 0) +
      "}, frontend_attributes={grad_x=" + bool_text(attr_bool_or(n.attrs, "grad_a", false)) +
      ",grad_y=" + bool_text(attr_bool_or(n.attrs, "grad_b", false)) + "}";
  Instr* dot = l.emit("dot", shape, {a, b}, attrs);
  Instr* t = l.emit("transpose", shape, {dot}, ", dimensions={0,1}");
  l.set({self(n), 0}, {t, nullptr, n.output_dtypes[0], out});
}

// Softmax over the last axis, as the MLIR bridge legalizes tf.Softmax: max-reduce in a region,
// the reduced value reshaped to keep the axis, broadcast back, exp of the difference, an
// add-reduce starting from -0, the same broadcast, divide. Region parameters and results carry
// only op_name (and the results op_type).
void lower_softmax(Lowering& l, const Node& n) {
  const XlaValue& in = l.get(n.inputs[0]);
  const DType dt = in.dtype;
  const std::vector<int64_t> dims = in.dims;
  if (dims.size() < 2)
    throw Error(ErrorKind::kNotImplemented, "[hlo] Softmax of rank " + std::to_string(dims.size()) +
                                                " is not lowered to HLO yet (rank 2 or more)");
  const std::string full_meta = l.meta;
  const std::string name_meta = "op_name=\"" + n.name + "\"";
  auto region = [&](const std::string& opcode) {
    Computation* c = l.add_computation("region_" + std::to_string(l.regions++));
    auto param = [&](int index) {
      Instr i;
      i.base = n.name;
      i.opcode = "parameter";
      i.shape = HloShape::array(dt, {});
      i.literal = std::to_string(index);
      if (l.options().metadata) i.metadata = name_meta;
      return c->add(std::move(i));
    };
    Instr* x = param(0);
    Instr* y = param(1);
    Instr r;
    r.base = n.name;
    r.opcode = opcode;
    r.shape = HloShape::array(dt, {});
    r.operands = {x, y};
    if (l.options().metadata) r.metadata = full_meta;
    c->add(std::move(r));
    return c;
  };
  std::vector<int64_t> batch(dims.begin(), dims.end() - 1);
  std::vector<int64_t> kept = batch;
  kept.push_back(1);
  const std::string last = "{" + std::to_string(dims.size() - 1) + "}";
  // The reduced value brought back to the input's shape, as the bridge writes it.
  auto spread = [&](Instr* r) {
    Instr* k = l.emit("reshape", HloShape::array(dt, kept), {r});
    Instr* b = l.emit("broadcast", HloShape::array(dt, kept), {k},
                      ", dimensions=" + format_ints(iota(kept.size())));
    Instr* s = l.emit("reshape", HloShape::array(dt, batch), {b});
    return l.emit("broadcast", HloShape::array(dt, dims), {s},
                  ", dimensions=" + format_ints(iota(batch.size())));
  };
  Instr* x = l.operand(in);
  Computation* max_region = region("maximum");
  Computation* add_region = region("add");
  // Only the constants keep the source location in TF's text; the rest carry op_type/op_name.
  Instr* neg_inf = l.scalar_constant(dt, "-inf");
  Instr* neg_zero = l.scalar_constant(dt, "-0");
  Instr* m = l.emit("reduce", HloShape::array(dt, batch), {x, neg_inf}, ", dimensions=" + last);
  m->to_apply = max_region;
  Instr* e = l.emit("exponential", HloShape::array(dt, dims),
                    {l.emit("subtract", HloShape::array(dt, dims), {x, spread(m)})});
  Instr* s = l.emit("reduce", HloShape::array(dt, batch), {e, neg_zero}, ", dimensions=" + last);
  s->to_apply = add_region;
  Instr* out = l.emit("divide", HloShape::array(dt, dims), {e, spread(s)});
  l.set({self(n), 0}, {out, nullptr, n.output_dtypes[0], dims});
}

}  // namespace

bool lower_nn(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  if (op == "MatMul") {
    lower_matmul(l, n);
    return true;
  }
  if (op == "BiasAdd") {
    if (attr_string(n.attrs, "data_format") != "NHWC")
      throw Error(ErrorKind::kNotImplemented, "[hlo] BiasAdd with data_format " +
                                                  attr_string(n.attrs, "data_format") +
                                                  " is not lowered to HLO yet");
    std::vector<int64_t> out = static_dims(n);
    Instr* x = l.operand(l.get(n.inputs[0]));
    Instr* b = l.broadcast_to(l.get(n.inputs[1]), out);
    l.set({self(n), 0}, {l.emit("add", HloShape::array(n.output_dtypes[0], out), {x, b}), nullptr,
                         n.output_dtypes[0], out});
    return true;
  }
  if (op == "Relu" || op == "Relu6") {
    const XlaValue& in = l.get(n.inputs[0]);
    Instr* x = l.operand(in);
    const DType dt = in.dtype;
    std::vector<int64_t> out = static_dims(n);
    Instr* r;
    if (op == "Relu") {
      Instr* zero = l.broadcast_to({l.scalar_constant(dt, "0"), nullptr, dt, {}}, out);
      r = l.emit("maximum", HloShape::array(dt, out), {x, zero});
    } else {
      Instr* zero = l.scalar_constant(dt, "0");
      Instr* six = l.scalar_constant(dt, "6");
      Instr* lo = l.broadcast_to({zero, nullptr, dt, {}}, out);
      Instr* hi = l.broadcast_to({six, nullptr, dt, {}}, out);
      r = l.emit("clamp", HloShape::array(dt, out), {lo, x, hi});
    }
    l.set({self(n), 0}, {r, nullptr, dt, out});
    return true;
  }
  if (op == "Softmax") {
    lower_softmax(l, n);
    return true;
  }
  return false;
}

}  // namespace tfs::hlo::detail
