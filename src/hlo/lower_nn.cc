// MatMul as dot with contracting dimensions (and tf2xla's identity transpose after it), BiasAdd,
// Relu/Relu6 against broadcast constants, and Softmax as TF's MLIR legalization writes it.
#include <algorithm>

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

// MatMul and BatchMatMulV2 (same batch dimensions): a dot over the batch dimensions and the
// contracting ones, then tf2xla's identity transpose.
void lower_matmul(Lowering& l, const Node& n) {
  const XlaValue& av = l.get(n.inputs[0]);
  const XlaValue& bv = l.get(n.inputs[1]);
  const bool batch = n.op() == "BatchMatMulV2";
  const bool ta = attr_bool_or(n.attrs, batch ? "adj_x" : "transpose_a", false);
  const bool tb = attr_bool_or(n.attrs, batch ? "adj_y" : "transpose_b", false);
  const int64_t r = static_cast<int64_t>(av.dims.size());
  if (batch && (bv.dims.size() != av.dims.size() ||
                !std::equal(av.dims.begin(), av.dims.end() - 2, bv.dims.begin())))
    throw Error(ErrorKind::kNotImplemented,
                "[hlo] BatchMatMulV2 " + n.name +
                    " with broadcast batch dimensions is not lowered to HLO yet");
  Instr* a = l.operand(av);
  Instr* b = l.operand(bv);
  std::vector<int64_t> out = static_dims(n);
  HloShape shape = HloShape::array(n.output_dtypes[0], out);
  std::vector<int64_t> batch_dims = iota(static_cast<size_t>(r - 2));
  std::string attrs;
  if (!batch_dims.empty()) attrs += ", lhs_batch_dims=" + format_ints(batch_dims);
  attrs += ", lhs_contracting_dims={" + std::to_string(ta ? r - 2 : r - 1) + "}";
  if (!batch_dims.empty()) attrs += ", rhs_batch_dims=" + format_ints(batch_dims);
  attrs += ", rhs_contracting_dims={" + std::to_string(tb ? r - 1 : r - 2) + "}";
  attrs += ", frontend_attributes={grad_x=" +
           bool_text(attr_bool_or(n.attrs, batch ? "grad_x" : "grad_a", false)) +
           ",grad_y=" + bool_text(attr_bool_or(n.attrs, batch ? "grad_y" : "grad_b", false)) + "}";
  Instr* dot = l.emit("dot", shape, {a, b}, attrs);
  Instr* t = l.emit("transpose", shape, {dot}, ", dimensions=" + format_ints(iota(out.size())));
  l.set({self(n), 0}, {t, nullptr, n.output_dtypes[0], out});
}

// Softmax (and LogSoftmax) over the last axis, as the MLIR bridge legalizes them: max-reduce in a
// region, the reduced value reshaped to keep the axis, broadcast back, exp of the difference, an
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
  auto keep = [&](Instr* r) { return l.emit("reshape", HloShape::array(dt, kept), {r}); };
  auto spread_kept = [&](Instr* k) {
    Instr* b = l.emit("broadcast", HloShape::array(dt, kept), {k},
                      ", dimensions=" + format_ints(iota(kept.size())));
    Instr* s = l.emit("reshape", HloShape::array(dt, batch), {b});
    return l.emit("broadcast", HloShape::array(dt, dims), {s},
                  ", dimensions=" + format_ints(iota(batch.size())));
  };
  auto spread = [&](Instr* r) { return spread_kept(keep(r)); };
  Instr* x = l.operand(in);
  Computation* max_region = region("maximum");
  Computation* add_region = region("add");
  // Only the constants keep the source location in TF's text; the rest carry op_type/op_name.
  Instr* neg_inf = l.scalar_constant(dt, "-inf");
  Instr* neg_zero = l.scalar_constant(dt, "-0");
  Instr* m = l.emit("reduce", HloShape::array(dt, batch), {x, neg_inf}, ", dimensions=" + last);
  m->to_apply = max_region;
  Instr* shifted = l.emit("subtract", HloShape::array(dt, dims), {x, spread(m)});
  Instr* e = l.emit("exponential", HloShape::array(dt, dims), {shifted});
  Instr* s = l.emit("reduce", HloShape::array(dt, batch), {e, neg_zero}, ", dimensions=" + last);
  s->to_apply = add_region;
  Instr* out;
  if (n.op() == "LogSoftmax") {  // the shifted logits less the log of the sum, taken kept-shaped
    Instr* log_sum = l.emit("log", HloShape::array(dt, kept), {keep(s)});
    out = l.emit("subtract", HloShape::array(dt, dims), {shifted, spread_kept(log_sum)});
  } else {
    out = l.emit("divide", HloShape::array(dt, dims), {e, spread(s)});
  }
  l.set({self(n), 0}, {out, nullptr, n.output_dtypes[0], dims});
}

}  // namespace

bool lower_nn(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  if (op == "MatMul" || op == "BatchMatMulV2") {
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
  if (op == "Softmax" || op == "LogSoftmax") {
    lower_softmax(l, n);
    return true;
  }
  return false;
}

}  // namespace tfs::hlo::detail
