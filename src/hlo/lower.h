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
  Lowering(Module& module, Computation& entry, const LowerOptions& options)
      : module_(module), entry_(entry), options_(options) {}

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

  // A computation for a reducer or an MLIR region, printed before the entry computation.
  Computation* add_computation(std::string base);

  std::string base;
  std::string meta;
  int regions = 0;  // MLIR regions made so far (region_0, region_1, ...)
  const LowerOptions& options() const { return options_; }

 private:
  Module& module_;
  Computation& entry_;
  const LowerOptions& options_;
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

// Whether XLA has a kernel for the op of `n` at all: TF's tf2xla has none for a node with a
// string operand or result.
bool xla_has_kernel(const Node& n);

// Helpers shared by the families.
std::vector<int64_t> static_dims(const Node& n, int output = 0);
std::vector<int64_t> constant_ints(const Lowering& l, const Node& n, int input);
std::string format_ints(const std::vector<int64_t>& v);  // "{1,0}"

}  // namespace tfs::hlo::detail
