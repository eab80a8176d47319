// Graph -> HLO: the lowering state of one function (values per graph output, the module being
// built) and the per-op lowering rules, as TF 2.21's tf2xla kernels emit them.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "module.h"
#include "tfscope/graph.h"
#include "tfscope/hlo.h"

namespace tfs::hlo::detail {

// What a graph output is while lowering: an instruction, or a compile-time constant (a Const
// node), which XLA materializes afresh at each consumer under the consumer's metadata.
struct XlaValue {
  Instr* instr = nullptr;
  const Tensor* constant = nullptr;
  DType dtype = DType::kInvalid;
  std::vector<int64_t> dims;
};

class Lowering {
 public:
  // Lowers the nodes of `fn` into `target`; `caller` is the lowering of the function whose
  // If/While node calls `fn` (null for the entry), where library functions are also looked up.
  Lowering(Module& module, Computation& target, const LowerOptions& options,
           const GraphFunction& fn, const Lowering* caller = nullptr)
      : module_(module), target_(target), options_(options), fn_(fn), caller_(caller) {}

  // Lowers `node`, whose inputs are already lowered, and records its outputs.
  void lower(const Node& node);
  bool fold(const Node& node);  // constant folding; false when `node` is not folded
  void set(const Output& out, XlaValue v) { values_[{out.node, out.index}] = std::move(v); }
  const XlaValue& get(const Output& out) const;

  // Emit instructions named `base` under `meta` (the node's name and metadata while a node is
  // lowered).
  Instr* emit(std::string opcode, HloShape shape, std::vector<Instr*> operands,
              std::string attrs = {}, std::string literal = {});
  Instr* operand(const XlaValue& v);  // materializes a constant
  Instr* constant(const Tensor& t);
  Instr* scalar_constant(DType dt, const std::string& literal);
  // XlaBuilder::BroadcastInDim: operand dim i becomes output dim mapping[i] (size-1 dims may
  // stretch).
  Instr* broadcast_in_dim(Instr* x, const std::vector<int64_t>& out,
                          const std::vector<int64_t>& mapping);
  // XLA's BroadcastTo (tf2xla's implicit broadcasts, Tile): no instruction when the shapes agree.
  Instr* broadcast_to(const XlaValue& v, const std::vector<int64_t>& out_dims);
  // tf2xla's reducer computation `<node>-reduction`: parameters x, y and `opcode` of them.
  Computation* reducer(const std::string& opcode, DType dt);

  // Keeps a constant computed while lowering (a folded Fill) for the values that point at it.
  const Tensor* own(Tensor t) { return &owned_.emplace_back(std::move(t)); }

  // A computation for a reducer, an MLIR region or a called function (printed before its caller).
  Computation* add_computation(std::string base) {
    return module_.add_computation(std::move(base));
  }
  // The library function `name` that an If/While node of this function names.
  const GraphFunction& function(const std::string& name) const;

  std::string base;
  std::string meta;
  std::string node_name;  // the full name of the node being lowered
  int regions = 0;        // MLIR regions made so far (region_0, region_1, ...)
  const LowerOptions& options() const { return options_; }
  Module& module() { return module_; }
  const Lowering* caller() const { return caller_; }

 private:
  Module& module_;
  Computation& target_;
  const LowerOptions& options_;
  const GraphFunction& fn_;
  const Lowering* caller_;
  std::map<std::pair<const Node*, int>, XlaValue> values_;
  std::deque<Tensor> owned_;
};

// Per op family; each returns false when it does not know the op.
bool lower_elementwise(Lowering& l, const Node& n);
bool lower_array(Lowering& l, const Node& n);
bool lower_reduction(Lowering& l, const Node& n);
bool lower_nn(Lowering& l, const Node& n);
bool lower_index(Lowering& l, const Node& n);
bool lower_math(Lowering& l, const Node& n);
bool lower_control(Lowering& l, const Node& n);  // If, While (lower_control.cc)

// What a caller passes to a function it lowers as a computation of its own (XlaCompiler's
// CompileFunction with a tuple argument): the arguments' values, and for the arguments whose
// uses tf2xla replaces by a Const (PropagateConstInto*Node) the constant.
struct FunctionCall {
  std::vector<XlaValue> args;
  std::map<size_t, const Tensor*> constants;
  bool passthrough = false;  // a While body: a constant argument's result stays the argument
};

// Lowers `fn` into a new computation named after it (`suffix` appended to the function name, as
// tf2xla names a rewritten copy): a parameter tuple taken apart by get-tuple-element, the body's
// nodes, the results reshaped and returned as a tuple (hlo.cc).
Computation* lower_function(Lowering& caller, const GraphFunction& fn, const std::string& suffix,
                            const FunctionCall& call);

// XLA's name for a computation made from a TF function or node name: characters outside
// [A-Za-z0-9_.-] turned into '_', the first into a letter.
std::string sanitized_name(std::string name);

// Whether XLA has a kernel for the op of `n` at all: TF's tf2xla has none for a node with a
// string operand or result.
bool xla_has_kernel(const Node& n);

// Helpers shared by the families.
std::vector<int64_t> static_dims(const Node& n, int output = 0);
std::vector<int64_t> constant_ints(const Lowering& l, const Node& n, int input);
std::string format_ints(const std::vector<int64_t>& v);  // "{1,0}"

}  // namespace tfs::hlo::detail
