// Control flow as tf2xla's XlaIfOp and XlaWhileOp build it. If/StatelessIf: both branches
// lowered as computations of the same argument tuple, a `conditional` on the predicate, and a
// get-tuple-element per output. While/StatelessWhile: the body and condition as computations of
// the loop-state tuple, the condition wrapped in `cond_wrapper` (a call, then its pred[] taken out
// of the result tuple), a `while`, its results taken apart and tupled again (BuildWhile's padded
// outputs), and a get-tuple-element per output.
//
// Before lowering, tf2xla rewrites a functional node's Const inputs into its functions
// (PropagateConstIntoIfNode / PropagateConstIntoAndAroundWhileNode, tf2xla_util.cc): the uses of
// such an argument inside become the Const (materialized at each user), the function gets the
// name `<name>_const_0`, and a While's output for it is the Const too. A While does this only for
// a loop-invariant input (the body returns its argument, through Identity nodes), and its body
// still returns the argument itself. Each constant input is materialized twice in the caller,
// once when the kernel reads its shape (left unused) and once for the argument tuple.
#include <set>

#include "lower.h"
#include "tfscope/errors.h"

namespace tfs::hlo::detail {

namespace {

Node* self(const Node& n) {
  return const_cast<Node*>(&n);
}

// The node an output comes from, through Identity nodes.
const Node* through_identities(const Output& o) {
  const Node* n = o.node;
  while (n->op() == "Identity" && !n->inputs.empty()) n = n->inputs[0].node;
  return n;
}

// Whether the body returns its argument `k` unchanged (tf2xla's IsLoopInvariant).
bool loop_invariant(const GraphFunction& body, size_t k) {
  return k < body.outputs.size() && k < body.args.size() &&
         through_identities(body.outputs[k]) == body.args[k];
}

std::vector<XlaValue> input_values(Lowering& l, const Node& n, size_t first) {
  std::vector<XlaValue> values;
  for (size_t i = first; i < n.inputs.size(); ++i) {
    if (n.inputs[i].node->output_dtypes[static_cast<size_t>(n.inputs[i].index)] == DType::kResource)
      throw Error(ErrorKind::kNotImplemented, "[hlo] " + n.op() + " " + n.name +
                                                  ": variables passed to tf.cond or "
                                                  "tf.while_loop are not lowered to HLO yet");
    values.push_back(l.get(n.inputs[i]));
  }
  return values;
}

// The kernel reading each input's shape: a constant input is materialized, and left unused.
void materialize_constants(Lowering& l, const std::vector<XlaValue>& values) {
  for (const XlaValue& v : values)
    if (v.constant) l.operand(v);
}

std::vector<Instr*> operands(Lowering& l, const std::vector<XlaValue>& values) {
  std::vector<Instr*> out;
  for (const XlaValue& v : values) out.push_back(l.operand(v));
  return out;
}

std::vector<HloShape> shapes_of(const std::vector<Instr*>& instrs) {
  std::vector<HloShape> out;
  for (Instr* i : instrs) out.push_back(i->shape);
  return out;
}

Instr* element(Lowering& l, Instr* tuple, size_t k) {
  return l.emit("get-tuple-element", tuple->shape.elements[k], {tuple},
                ", index=" + std::to_string(k));
}

void lower_if(Lowering& l, const Node& n) {
  const XlaValue& pred = l.get(n.inputs[0]);
  if (pred.dtype != DType::kBool || !pred.dims.empty())
    throw Error(ErrorKind::kNotImplemented,
                "[hlo] " + n.op() + " " + n.name + ": the predicate must be a scalar bool");
  const std::vector<XlaValue> values = input_values(l, n, 1);
  FunctionCall call;
  call.args = values;
  for (size_t k = 0; k < values.size(); ++k)
    if (n.inputs[k + 1].node->op() == "Const") call.constants[k] = values[k].constant;
  const std::string suffix = call.constants.empty() ? "" : "_const_0";
  materialize_constants(l, values);
  Computation* then_c =
      lower_function(l, l.function(attr_func(n.attrs, "then_branch").name), suffix, call);
  Computation* else_c =
      lower_function(l, l.function(attr_func(n.attrs, "else_branch").name), suffix, call);
  std::vector<Instr*> ops = operands(l, values);
  Instr* tuple = l.emit("tuple", HloShape::tuple(shapes_of(ops)), ops);
  Instr* cond = l.emit("conditional", then_c->root->shape, {l.operand(pred), tuple, tuple});
  cond->calls = {{"true_computation", then_c}, {"false_computation", else_c}};
  for (size_t k = 0; k < n.output_dtypes.size(); ++k) {
    Instr* out = element(l, cond, k);
    l.set({self(n), static_cast<int>(k)}, {out, nullptr, n.output_dtypes[k], out->shape.dims});
  }
}

// XLA's while wants a pred[] condition: tf2xla's cond_wrapper calls the condition and takes the
// predicate out of its result tuple.
Computation* cond_wrapper(Lowering& l, Computation* cond, const HloShape& state) {
  Computation* c = l.add_computation("cond_wrapper");
  Instr p;
  p.base = "inputs";
  p.opcode = "parameter";
  p.shape = state;
  p.literal = "0";
  Instr* inputs = c->add(std::move(p));
  Instr call;
  call.base = call.opcode = "call";
  call.shape = cond->root->shape;
  call.operands = {inputs};
  call.to_apply = cond;
  Instr* result = c->add(std::move(call));
  Instr pred;
  pred.base = pred.opcode = "get-tuple-element";
  pred.shape = result->shape.elements.at(0);
  pred.operands = {result};
  pred.attrs = ", index=0";
  c->add(std::move(pred));
  return c;
}

void lower_while(Lowering& l, const Node& n) {
  const std::vector<XlaValue> values = input_values(l, n, 0);
  const GraphFunction& body = l.function(attr_func(n.attrs, "body").name);
  const GraphFunction& cond = l.function(attr_func(n.attrs, "cond").name);
  FunctionCall call;
  call.args = values;
  for (size_t k = 0; k < values.size(); ++k) {
    const Node* src = through_identities(n.inputs[k]);
    if (src->op() == "Const" && loop_invariant(body, k))
      call.constants[k] = &attr_tensor(src->attrs, "value");
  }
  const std::string suffix = call.constants.empty() ? "" : "_const_0";
  materialize_constants(l, values);
  call.passthrough = true;
  Computation* body_c = lower_function(l, body, suffix, call);
  call.passthrough = false;
  Computation* cond_c = lower_function(l, cond, suffix, call);
  std::vector<Instr*> ops = operands(l, values);
  Instr* init = l.emit("tuple", HloShape::tuple(shapes_of(ops)), ops);
  Computation* wrapper = cond_wrapper(l, cond_c, init->shape);
  Instr* loop = l.emit("while", init->shape, {init});
  loop->calls = {{"condition", wrapper}, {"body", body_c}};
  std::vector<Instr*> padded;
  for (size_t k = 0; k < values.size(); ++k) padded.push_back(element(l, loop, k));
  Instr* result = l.emit("tuple", init->shape, padded);
  for (size_t k = 0; k < n.output_dtypes.size(); ++k) {
    Instr* out = element(l, result, k);
    auto c = call.constants.find(k);
    if (c != call.constants.end())
      l.set({self(n), static_cast<int>(k)},
            {nullptr, c->second, c->second->dtype(), c->second->eager_shape().dims()});
    else
      l.set({self(n), static_cast<int>(k)}, {out, nullptr, n.output_dtypes[k], out->shape.dims});
  }
}

}  // namespace

bool lower_control(Lowering& l, const Node& n) {
  const std::string& op = n.op();
  if (op == "If" || op == "StatelessIf") {
    lower_if(l, n);
    return true;
  }
  if (op == "While" || op == "StatelessWhile") {
    lower_while(l, n);
    return true;
  }
  return false;
}

}  // namespace tfs::hlo::detail
