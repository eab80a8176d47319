// The op front end: one function per op, as TF's Python wrappers (tf.add, tf.matmul, ...). Each
// runs the kernel now when its inputs are eager, or adds a node to the graph being built when a
// build context is active or an input is symbolic. Python-style conversion of host values
// (x * 2 converts 2 to x's dtype) follows TF's op_def_library rules.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tfscope/op_def.h"
#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

// Graph building, provided by the graph layer while a build context is active.
class GraphBuilder {
 public:
  virtual ~GraphBuilder() = default;
  // Adds a node; eager inputs are captured by the builder. Returns the node's outputs.
  virtual std::vector<Tensor> add_op(const OpDef& def, std::vector<Tensor> inputs, AttrMap attrs,
                                     const std::string& name) = 0;
  // A constant in this graph (a Const node named `name`).
  virtual Tensor constant(const Tensor& value, const std::string& name) = 0;
  // Name scopes: "mul" then "mul/y" for the converted operand, as TF names them.
  virtual std::string unique_name(const std::string& name, bool mark_used) = 0;
  virtual void push_scope(const std::string& scope) = 0;
  virtual void pop_scope() = 0;
  // The same output with a more specific static shape (handle data known to the caller).
  virtual Tensor refine_shape(const Tensor& t, const PartialShape& shape) = 0;
  // The innermost name scope open now, with its slash ("mul/"), or "" (TF's get_name_scope()).
  virtual std::string name_scope() const { return ""; }

  // random_seed.get_seed's state for this graph: its seed (taken from the global seed when the
  // graph first asks, set by set_random_seed while tracing) and how many ops drew an op seed.
  struct RandomSeedState {
    bool initialised = false;
    std::optional<int64_t> seed;
    int64_t next_op_seed = 0;
  };
  RandomSeedState random_seed_state;
};

// The innermost active builder on this thread, or null when executing eagerly.
GraphBuilder* current_builder();
void push_builder(GraphBuilder* b);
void pop_builder();
bool executing_eagerly();

// What an eager kernel error ends with after "[Op:X]", for the calls made while one of these is
// alive on the thread: TF's fast path appends " name: <name>" (name empty unless the Python
// wrapper passes one, as tf.concat passes "concat"); a Python list operand sends TF's generated
// wrapper down eager_fallback, whose errors end at "[Op:X]" (suffix "").
class EagerErrorName {
 public:
  explicit EagerErrorName(std::string suffix);
  ~EagerErrorName();
  EagerErrorName(const EagerErrorName&) = delete;
  EagerErrorName& operator=(const EagerErrorName&) = delete;
  static const std::string& current();  // " name: " when none is alive

 private:
  std::string suffix_;
  const std::string* previous_;
};

// The `name=` of a Python wrapper whose C++ front end names its node itself (tf.add(x, y,
// name="foo") -> node "foo", its converted operand "foo/y"; a second one "foo_1"). While one is
// alive on the thread, the first node or name scope the front end would name `base` is named
// `name` instead (made unique as usual). Graph mode only: eager errors never show the name.
class WrapperName {
 public:
  WrapperName(std::string base, std::string name);
  ~WrapperName();
  WrapperName(const WrapperName&) = delete;
  WrapperName& operator=(const WrapperName&) = delete;
  // The name for a node or scope the front end asks to name `requested`; `claim` uses the
  // override up (a node or a scope taking its name), otherwise it is only looked at (the scope
  // an op's inputs are converted in before the op takes the name).
  static std::string rename(const std::string& requested, bool claim);

 private:
  std::string base_, name_;
  bool used_ = false;
  WrapperName* previous_;
};

// TF's generated op wrapper (op_def_library._apply_op_helper; eagerly the fast path): `inputs`
// holds one value per input ArgDef of `op` (a list or tuple for a list input); host values are
// converted to the dtype the ArgDef asks for (a fixed dtype, an attr given in `attrs`, or the
// dtype an earlier input fixed; eagerly a tensor input fixes its attr for all), with TF's texts.
// In a graph the inputs are converted in the name scope `name` (the op's type when empty), made
// unique, and the node takes that name ("foo", its host operand "foo/y").
std::vector<Tensor> apply_op(const std::string& op, const std::vector<Value>& inputs,
                             AttrMap attrs = {}, const std::string& name = "");

// Run or stage one op: the one dispatch point of every op, function calls included. `name` is
// the node name TF's Python wrapper would use ("add", "mul"). Eagerly, a symbolic input raises
// TF's out-of-scope TypeError; `runtime` resolves the functions a call op names (default: the
// context's library).
std::vector<Tensor> execute(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs = {},
                            const std::string& name = "");
std::vector<Tensor> execute(const OpDef& def, std::vector<Tensor> inputs, AttrMap attrs,
                            const std::string& name, FunctionRuntime* runtime = nullptr);
// The eager half of execute(), for inputs whose dtypes the caller has checked against the op's
// resolved attrs (a call op of a traced function).
std::vector<Tensor> execute_eager(const OpDef& def, std::span<const Tensor> inputs,
                                  const AttrMap& attrs, const std::string& name,
                                  FunctionRuntime* runtime = nullptr);
// TF's TypeError for a graph tensor used where its graph is not being built ("<tf.Tensor 'add:0'
// shape=() dtype=int32> is out of scope and cannot be used here. ...").
[[noreturn]] void out_of_scope_error(const Tensor& t);
// How an error names the graph a tensor belongs to ("FuncGraph(name=f, id=1234)"); set by the
// graph layer.
using GraphDescriber = std::string (*)(const Tensor& t);
void set_graph_describer(GraphDescriber d);
Tensor execute1(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs = {},
                const std::string& name = "");

// ReadVariableOp of a variable (in graph mode its output has the variable's static shape).
Tensor read_variable(const std::shared_ptr<VariableState>& var,
                     const std::string& name = "ReadVariableOp");

// tf.convert_to_tensor / tf.constant on host values. Python ints become int32, floats float32,
// nested lists become one tensor. With a dtype, converts as TF does and raises TF's errors
// ("Cannot convert 2.5 to EagerTensor of dtype int32").
Tensor convert_to_tensor(const Value& v, DType dtype = DType::kInvalid,
                         const std::string& name = "Const");
Tensor constant(const Value& v, DType dtype = DType::kInvalid, const std::string& name = "Const");
// TF's autopacking of a list or tuple holding tensors (what convert_to_tensor does with one, in
// the scope `name`, "packed" when it has none): a Pack whose Python values are Consts named by
// their position ("packed/1"); the dtype is the first tensor's unless given.
Tensor autopack(const Value& list, DType dtype, const std::string& name);
// The dtype a host value converts to by default (int -> int32, float -> float32, ...).
DType infer_dtype(const Value& v);

// Elementwise binary ops with Python operator semantics for host operands.
Tensor add(const Value& x, const Value& y);
Tensor subtract(const Value& x, const Value& y);
Tensor multiply(const Value& x, const Value& y);
Tensor truediv(const Value& x, const Value& y);
Tensor floordiv(const Value& x, const Value& y);
Tensor floormod(const Value& x, const Value& y);
Tensor tf_floormod(const Value& x, const Value& y);  // tf.math.floormod: node "FloorMod"
Tensor truncatediv(const Value& x, const Value& y);
Tensor truncatemod(const Value& x, const Value& y);
Tensor pow(const Value& x, const Value& y);  // x ** y: node "pow"
Tensor tf_pow(const Value& x, const Value& y);  // tf.pow(x, y): node "Pow"
Tensor maximum(const Value& x, const Value& y);
Tensor minimum(const Value& x, const Value& y);
Tensor less(const Value& x, const Value& y);
Tensor less_equal(const Value& x, const Value& y);
Tensor greater(const Value& x, const Value& y);
Tensor greater_equal(const Value& x, const Value& y);
Tensor equal(const Value& x, const Value& y);
Tensor not_equal(const Value& x, const Value& y);
// tf.logical_and/or/not: host operands convert to bool ("LogicalAnd/y" in a graph).
Tensor logical_and(const Value& x, const Value& y);
Tensor logical_or(const Value& x, const Value& y);
Tensor logical_not(const Value& x);
// The Python operators x & y and x | y on bool tensors: the same ops, named "and" and "or".
Tensor and_operator(const Value& x, const Value& y);
Tensor or_operator(const Value& x, const Value& y);

Tensor neg(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor square(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor rsqrt(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor log(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor sigmoid(const Tensor& x);
Tensor erf(const Tensor& x);
Tensor erfc(const Tensor& x);
Tensor log1p(const Tensor& x);
Tensor expm1(const Tensor& x);
Tensor reciprocal(const Tensor& x);
Tensor ceil(const Tensor& x);
Tensor relu(const Tensor& x);
Tensor relu6(const Tensor& x);
Tensor gelu(const Tensor& x, bool approximate = false);
// tf.nn.leaky_relu: LeakyRelu in a "LeakyRelu" scope, integer features cast to float32 first
// ("LeakyRelu/Cast"); alpha is the op's float32 attr.
Tensor leaky_relu(const Value& features, float alpha = 0.2f);
Tensor elu(const Value& features);       // Elu: exp(x) - 1 below 0
Tensor softplus(const Value& features);  // Softplus: log1p(exp(x)), x or exp(x) beyond +/-13.94
Tensor selu(const Value& features);      // Selu: scaled Elu
Tensor softmax(const Tensor& x);
Tensor log_softmax(const Tensor& x);
Tensor cast(const Tensor& x, DType dtype);
Tensor identity(const Tensor& x);
Tensor where(const Tensor& cond, const Value& x, const Value& y);  // SelectV2

Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a = false, bool transpose_b = false);
// tf.nn.bias_add: operands converted in its "BiasAdd" scope ("BiasAdd/bias").
Tensor bias_add(const Value& x, const Value& bias);

// Shapes and layout.
Tensor shape(const Tensor& x, DType out_type = DType::kInt32);  // tf.shape (a Const when static)
Tensor size(const Tensor& x);
Tensor rank(const Tensor& x);
Tensor reshape(const Tensor& x, const Value& shape);
Tensor expand_dims(const Tensor& x, int64_t axis);
Tensor squeeze(const Tensor& x, std::vector<int64_t> axis = {});
Tensor transpose(const Tensor& x, std::optional<std::vector<int64_t>> perm = std::nullopt);
Tensor transpose_by(const Tensor& x, const Tensor& perm);  // a computed perm
Tensor concat(const std::vector<Tensor>& values, int64_t axis);
Tensor stack(const std::vector<Tensor>& values, int64_t axis = 0);
// num < 0: taken from the static shape (TF's num=None).
std::vector<Tensor> unstack(const Tensor& x, int64_t axis = 0, int64_t num = -1);
Tensor slice(const Tensor& x, const std::vector<int64_t>& begin, const std::vector<int64_t>& size);
// tf.slice with begin and size as Python gives them (lists, or int32/int64 tensors).
Tensor slice(const Value& input, const Value& begin, const Value& size);
Tensor gather(const Tensor& params, const Value& indices, int64_t axis = 0);
Tensor fill(const Value& dims, const Value& value);
Tensor zeros(const std::vector<int64_t>& shape, DType dtype = DType::kFloat32);
Tensor ones(const std::vector<int64_t>& shape, DType dtype = DType::kFloat32);
// In a graph, a fully defined static shape folds to a Const named "zeros_like"/"ones_like" as
// TF's wrappers build it; otherwise the ZerosLike/OnesLike op.
Tensor zeros_like(const Tensor& x);
Tensor ones_like(const Tensor& x);
Tensor range(const Value& start, const Value& limit = Value(), const Value& delta = 1,
             DType dtype = DType::kInvalid);

// Reductions (axis None = all axes).
Tensor reduce_sum(const Tensor& x, std::optional<std::vector<int64_t>> axis = std::nullopt,
                  bool keepdims = false);
Tensor reduce_mean(const Tensor& x, std::optional<std::vector<int64_t>> axis = std::nullopt,
                   bool keepdims = false);
Tensor reduce_max(const Tensor& x, std::optional<std::vector<int64_t>> axis = std::nullopt,
                  bool keepdims = false);
Tensor reduce_min(const Tensor& x, std::optional<std::vector<int64_t>> axis = std::nullopt,
                  bool keepdims = false);
Tensor reduce_prod(const Tensor& x, std::optional<std::vector<int64_t>> axis = std::nullopt,
                   bool keepdims = false);
// Any reduction op ("Sum", "Mean", "Max", "Min", "Prod", "Any", "All") with axis as Python
// gives it: None, an int, a list of ints, or an int tensor; named as TF's wrappers name it.
Tensor reduce(const std::string& op, const Tensor& x, const Value& axis, bool keepdims = false);
Tensor argmax(const Tensor& x, int64_t axis = 0, DType output_type = DType::kInt64);
Tensor argmin(const Tensor& x, int64_t axis = 0, DType output_type = DType::kInt64);

// tf.clip_by_value: Minimum then Maximum in a "clip_by_value" scope (the Maximum takes the
// scope's name); a bound that would broadcast the input raises TF's "Shapes ... are
// incompatible" ValueError.
Tensor clip_by_value(const Value& t, const Value& clip_min, const Value& clip_max);
// tf.add_n: AddN of the operands, each converted on its own; one operand is returned as is.
Tensor add_n(const std::vector<Value>& inputs);
Tensor sign(const Value& x);   // Sign: -1, 0 or 1; NaN stays NaN, -0.0 gives 0.0
Tensor floor(const Value& x);  // Floor (float types)
Tensor round(const Value& x);  // Round, half to even; integer tensors are returned unchanged

// tf.random.set_seed. Eagerly it sets the global seed, restarts the sequence of op seeds drawn
// for ops without one, and restarts every random kernel (TF clears its kernel caches); while
// tracing it sets the graph's seed only.
void set_random_seed(std::optional<int64_t> seed);
// TF's random_seed.get_seed: the (seed, seed2) attrs of a random op given its op seed; (0, 0)
// (no seed anywhere) makes the kernel nondeterministic.
std::pair<int64_t, int64_t> get_random_seed(std::optional<int64_t> op_seed);

// tf.random.uniform / tf.random.normal: the stateful ops RandomUniform, RandomUniformInt and
// RandomStandardNormal, whose kernels continue one Philox stream per graph node (per op and
// seeds when eager). minval/maxval/mean/stddev are Python values: TF builds the range
// arithmetic unless minval is the int 0 and maxval the int 1 (maxval None means 1).
Tensor random_uniform(const std::vector<int64_t>& shape, const Value& minval = Value(int64_t{0}),
                      const Value& maxval = Value(), DType dtype = DType::kFloat32,
                      std::optional<int64_t> seed = std::nullopt);
Tensor random_normal(const std::vector<int64_t>& shape, const Value& mean = Value(0.0),
                     const Value& stddev = Value(1.0), DType dtype = DType::kFloat32,
                     std::optional<int64_t> seed = std::nullopt);

// tf.print: StringFormat + PrintV2; runs every call. Host values are frozen in at trace time.
struct PrintOptions {
  std::string output_stream = "stderr";  // "stderr", "stdout"
  std::string sep = " ";
  std::string end = "\n";
  int summarize = 3;
};
void print(const std::vector<Value>& inputs, const PrintOptions& options = {});
template <typename... Args>
void print(const Args&... args) {
  print(std::vector<Value>{Value(args)...});
}
// Where PrintV2 writes (tests redirect it). Default: the process's stderr/stdout.
using PrintSink = std::function<void(const std::string& stream, const std::string& text)>;
void set_print_sink(PrintSink sink);

// Operators on tensors, with Python semantics for scalars.
inline Tensor operator+(const Tensor& a, const Value& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Value& b) { return subtract(a, b); }
inline Tensor operator*(const Tensor& a, const Value& b) { return multiply(a, b); }
inline Tensor operator/(const Tensor& a, const Value& b) { return truediv(a, b); }
inline Tensor operator<(const Tensor& a, const Value& b) { return less(a, b); }
inline Tensor operator>(const Tensor& a, const Value& b) { return greater(a, b); }
inline Tensor operator<=(const Tensor& a, const Value& b) { return less_equal(a, b); }
inline Tensor operator>=(const Tensor& a, const Value& b) { return greater_equal(a, b); }
inline Tensor operator-(const Tensor& a) { return neg(a); }
template <typename T>
  requires std::is_arithmetic_v<T>
inline Tensor operator+(T a, const Tensor& b) { return add(Value(a), b); }
template <typename T>
  requires std::is_arithmetic_v<T>
inline Tensor operator*(T a, const Tensor& b) { return multiply(Value(a), b); }
template <typename T>
  requires std::is_arithmetic_v<T>
inline Tensor operator-(T a, const Tensor& b) { return subtract(Value(a), b); }

}  // namespace tfs
