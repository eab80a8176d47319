// One definition per op: TF's op name, its input/output signature and attrs (as TF's OpDef), a
// shape function, and a CPU kernel. Eager execution, graph building, the executor and the TFLite
// reference interpreter all go through these definitions.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {

class Graph;

// A function attr: the name of a function in the enclosing graph's library.
struct FuncAttr {
  std::string name;
  friend bool operator==(const FuncAttr&, const FuncAttr&) = default;
};

using AttrValue = std::variant<std::monostate, int64_t, float, bool, std::string, DType,
                               std::vector<int64_t>, PartialShape, Tensor, std::vector<DType>,
                               FuncAttr, std::vector<PartialShape>, std::vector<std::string>>;
using AttrMap = std::map<std::string, AttrValue>;

// Accessors that throw a one-line error naming the attr when it is missing or mistyped.
int64_t attr_int(const AttrMap& a, const std::string& name);
int64_t attr_int_or(const AttrMap& a, const std::string& name, int64_t dflt);
float attr_float(const AttrMap& a, const std::string& name);
bool attr_bool_or(const AttrMap& a, const std::string& name, bool dflt);
DType attr_type(const AttrMap& a, const std::string& name);
const std::string& attr_string(const AttrMap& a, const std::string& name);
std::string attr_string_or(const AttrMap& a, const std::string& name, const std::string& dflt);
const std::vector<int64_t>& attr_ints(const AttrMap& a, const std::string& name);
const std::vector<DType>& attr_types(const AttrMap& a, const std::string& name);
const Tensor& attr_tensor(const AttrMap& a, const std::string& name);
const PartialShape& attr_shape(const AttrMap& a, const std::string& name);
const FuncAttr& attr_func(const AttrMap& a, const std::string& name);
// TF's text form of an attr value in a NodeDef summary: DT_FLOAT, false, [1,2], ...
std::string attr_summary(const AttrValue& v);

// One input or output of an op, as an OpDef ArgDef.
struct ArgDef {
  std::string name{};
  std::string type_attr{};        // "T": the dtype comes from this attr
  DType fixed = DType::kInvalid;  // or a fixed dtype
  std::string number_attr{};      // "N": a list of N tensors of type_attr
  std::string type_list_attr{};   // "Tin": a list of tensors with these dtypes
};

struct TypeAttrDef {
  std::string name{};
  std::vector<DType> allowed{};  // empty = any
  std::optional<DType> default_type{};
};

// What a shape function sees: input dtypes and shapes, constant values of inputs where known
// (an eager input, or a Const node), and attrs. It writes output shapes.
class InferenceContext {
 public:
  std::vector<DType> input_dtypes;
  std::vector<PartialShape> input_shapes;
  std::vector<const Tensor*> input_values;  // null where unknown
  // An input's value as a partial shape where the graph knows it without knowing the value
  // (TF's ConstantPartialShape: a Pack of a Python int and a tensor of unknown value is
  // [-1, 16]); -1 marks an unknown dim. Read through value_as_shape. Empty or null: none.
  std::vector<const Tensor*> input_shape_values;
  const AttrMap* attrs = nullptr;
  std::vector<DType> output_dtypes;  // filled from the OpDef before the shape function runs
  std::vector<PartialShape> output_shapes;
  // For error texts: "{{node add}} = AddV2[T=DT_FLOAT](x, y)".
  std::string node_summary;
  // Per input: 0 not read, 1 read as a value, 2 read as a shape tensor.
  mutable std::vector<uint8_t> requested;

  int num_inputs() const { return static_cast<int>(input_shapes.size()); }
  const PartialShape& in(int i) const { return input_shapes[static_cast<size_t>(i)]; }
  // A constant input's value (null where unknown). Asking records it, as TF's input_tensor does:
  // a failing shape function's error then lists the values it read ("and with computed input
  // tensors: input[1] = <2>."); value_as_shape reads a shape tensor ("and with input tensors
  // computed as partial shapes: input[1] = [5].").
  const Tensor* value(int i) const;
  const Tensor* value_as_shape(int i) const;
  void set_output(int i, PartialShape s) { output_shapes[static_cast<size_t>(i)] = std::move(s); }
  // Raise TF's graph-construction ValueError: "<msg> for '<node summary>' with input shapes: ...".
  [[noreturn]] void fail(const std::string& msg) const;
  std::string input_shapes_text() const;  // "[2], [3]"
};

class FunctionRuntime;

// What a kernel keeps from one run to the next, as a TF OpKernel object keeps its members (a
// random op's generator). Graph plans hold one per node; eager execution holds one per op name
// and attrs, as TF's eager kernel cache does.
class KernelState {
 public:
  virtual ~KernelState() = default;
};

// Drops every kernel's state, eager and graph, as TF's set_seed clears the kernel caches: the
// next run of each stateful kernel starts afresh.
void clear_kernel_states();
uint64_t kernel_state_epoch();  // advanced by each clear_kernel_states()

class KernelStateSlot {
 public:
  // Calls `use(S&)` under the slot's lock; `make()` builds the state (a std::unique_ptr<S>)
  // when the slot is empty or was cleared since.
  template <class S, class Make, class Use>
  auto with(Make make, Use use) {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t now = kernel_state_epoch();
    if (!state_ || epoch_ != now) {
      state_ = make();
      epoch_ = now;
    }
    return use(static_cast<S&>(*state_));
  }

 private:
  std::mutex mu_;
  uint64_t epoch_ = 0;
  std::unique_ptr<KernelState> state_;
};

// What a kernel sees. Outputs are allocated through the context so the executor can reuse
// buffers.
class OpKernelContext {
 public:
  std::span<const Tensor> inputs;
  const AttrMap* attrs = nullptr;
  std::vector<Tensor>* outputs = nullptr;
  FunctionRuntime* runtime = nullptr;  // for If/While/PartitionedCall
  const std::string* node_name = nullptr;
  const std::string* op_name = nullptr;
  // Where an OpDef with keeps_state keeps it; null in a one-off run (nothing persists).
  KernelStateSlot* state = nullptr;

  const Tensor& input(int i) const { return inputs[static_cast<size_t>(i)]; }
  int num_inputs() const { return static_cast<int>(inputs.size()); }
  Tensor& allocate_output(int i, DType dtype, const Shape& shape);
  // The same for a shape given by its dims: where the plan offers a spare of these dims
  // (detail/kernel_run.h), no Shape is built.
  Tensor& allocate_output(int i, DType dtype, std::initializer_list<int64_t> dims);
  void set_output(int i, Tensor t);
  // A run-time failure as TF reports it: InvalidArgumentError with the op's name.
  [[noreturn]] void fail(const std::string& msg) const;
};

using ShapeFn = std::function<void(InferenceContext&)>;
using Kernel = std::function<void(OpKernelContext&)>;

struct OpDef {
  std::string name;
  std::vector<ArgDef> inputs;
  std::vector<ArgDef> outputs;
  std::vector<TypeAttrDef> type_attrs;
  bool stateful = false;
  // Stateful, but automatic control dependencies leave it unordered (TF's
  // _ORDER_INSENSITIVE_STATEFUL_OPS: the random ops).
  bool order_insensitive = false;
  bool keeps_state = false;  // the kernel keeps a KernelState between runs
  ShapeFn shape_fn;
  Kernel kernel;
};

// The process-wide op registry. Definitions register themselves at static-initialisation time
// from one file per op family (math, array, nn, control, state, io).
class OpRegistry {
 public:
  static OpRegistry& global();
  void add(OpDef def);
  const OpDef* find(const std::string& name) const;
  const OpDef& get(const std::string& name) const;  // throws NotFound
  std::vector<std::string> names() const;

 private:
  std::map<std::string, std::unique_ptr<OpDef>> ops_;
};

struct OpRegistration {
  explicit OpRegistration(OpDef def) { OpRegistry::global().add(std::move(def)); }
};

// Resolve the output dtypes of `def` from its input dtypes and attrs; fills type attrs that are
// inferred from inputs into `attrs` (as TF's op_def_library does). Throws TF's TypeError texts.
std::vector<DType> resolve_output_dtypes(const OpDef& def, std::span<const DType> input_dtypes,
                                         AttrMap& attrs, bool eager);
// How many inputs each ArgDef takes, given attrs (N for number_attr lists).
std::vector<int> input_arity(const OpDef& def, const AttrMap& attrs, int total_inputs);

// Runs the shape function; output dtypes must already be resolved.
void infer_shapes(const OpDef& def, InferenceContext& ctx);

// Runs the kernel on eager inputs and returns the outputs. The function runtime handles
// control-flow and call ops.
std::vector<Tensor> run_kernel(const OpDef& def, std::span<const Tensor> inputs,
                               const AttrMap& attrs, FunctionRuntime* runtime,
                               const std::string& node_name);

// Sees every op run or staged through execute() on the thread it is set for
// (Context::set_op_recorder): the tapes of tf.GradientTape record through it.
class OpRecorder {
 public:
  virtual ~OpRecorder() = default;
  virtual void record(const OpDef& def, std::span<const Tensor> inputs, const AttrMap& attrs,
                      std::span<const Tensor> outputs) = 0;
};

// The function runtime that control-flow kernels call into; provided by the graph layer.
class FunctionRuntime {
 public:
  virtual ~FunctionRuntime() = default;
  virtual std::vector<Tensor> call(const std::string& function_name,
                                   std::span<const Tensor> args) = 0;
};

}  // namespace tfs
