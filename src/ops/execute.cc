// Eager dispatch: run the kernel now, or hand the op to the active graph builder.
#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <map>

#include "kernel_util.h"
#include "op_scope.h"
#include "tfscope/complex.h"
#include "tfscope/context.h"
#include "tfscope/cpu_info.h"
#include "tfscope/detail/eager_error.h"
#include "tfscope/host_array.h"
#include "tfscope/ops.h"
#include "tfscope/thread_pool.h"

namespace tfs {

GraphBuilder* current_builder() {
  return Context::get().current_builder();
}
void push_builder(GraphBuilder* b) {
  Context::get().push_builder(b);
}
void pop_builder() {
  Context::get().pop_builder();
}
bool executing_eagerly() {
  return Context::get().executing_eagerly();
}

namespace {
thread_local const std::string* g_eager_error_name = nullptr;
}  // namespace

EagerErrorName::EagerErrorName(std::string suffix)
    : suffix_(std::move(suffix)), previous_(g_eager_error_name) {
  g_eager_error_name = &suffix_;
}
EagerErrorName::~EagerErrorName() {
  g_eager_error_name = previous_;
}

const std::string& EagerErrorName::current() {
  static const std::string kDefault = " name: ";
  return g_eager_error_name ? *g_eager_error_name : kDefault;
}

namespace {
std::atomic<GraphDescriber> g_graph_describer{nullptr};
}  // namespace

void set_graph_describer(GraphDescriber d) {
  g_graph_describer.store(d);
}

void out_of_scope_error(const Tensor& t) {
  GraphDescriber d = g_graph_describer.load();
  std::string graph = d ? d(t) : "a graph";
  // TF lists the Python stack that created the tensor; tfscope records none, and says so with
  // TF's own text for a tensor without a traceback.
  type_error(t.repr() +
             " is out of scope and cannot be used here. Use return values, explicit Python "
             "locals or TensorFlow collections to access it.\nPlease see "
             "https://www.tensorflow.org/guide/function#all_outputs_of_a_tffunction_must_be_"
             "return_values for more information.\n\n" +
             t.repr() + " was defined here:\n<unknown>\n\nThe tensor " + t.repr() +
             " cannot be accessed from here, because it was defined in " + graph +
             ", which is out of scope.");
}

std::vector<Tensor> execute(const OpDef& def, std::vector<Tensor> inputs, AttrMap attrs,
                            const std::string& name, FunctionRuntime* runtime) {
  OpRecorder* rec = Context::get().op_recorder();
  if (GraphBuilder* b = current_builder()) {
    const std::string node = WrapperName::rename(name.empty() ? def.name : name, true);
    if (!rec) return b->add_op(def, std::move(inputs), std::move(attrs), node);
    std::vector<Tensor> outs = b->add_op(def, inputs, attrs, node);
    std::vector<DType> dtypes;
    for (auto& t : inputs) dtypes.push_back(t.dtype());
    resolve_output_dtypes(def, dtypes, attrs, /*eager=*/false);  // the type attrs, as the node's
    rec->record(def, inputs, attrs, outs);
    return outs;
  }
  for (auto& t : inputs) {
    if (t.is_symbolic()) out_of_scope_error(t);
  }
  std::vector<DType> dtypes;
  dtypes.reserve(inputs.size());
  for (auto& t : inputs) dtypes.push_back(t.dtype());
  resolve_output_dtypes(def, dtypes, attrs, /*eager=*/true);
  std::vector<Tensor> outs = execute_eager(def, inputs, attrs, name, runtime);
  if (rec) rec->record(def, inputs, attrs, outs);
  return outs;
}

std::vector<Tensor> execute_eager(const OpDef& def, std::span<const Tensor> inputs,
                                  const AttrMap& attrs, const std::string& name,
                                  FunctionRuntime* runtime) {
  if (!runtime) runtime = &Context::get().eager_runtime();
  mark_context_initialized();  // as TF's first eager op does (tf.config.threading is fixed now)
  try {
    return run_kernel(def, inputs, attrs, runtime, name.empty() ? def.name : name);
  } catch (const Error& e) {
    if (!is_kernel_status(e.kind())) throw;
    std::string msg = e.what();
    // Already a tfscope-formatted error, or a function's error (TF's eager function runtime
    // reports a failing call as the function's own). A dataset op with a function attr (map,
    // interleave, ...) is no call: its checks fail as any op's.
    const bool call = attrs.count("f") && def.name.find("Dataset") == std::string::npos;
    if (msg.rfind("[", 0) == 0 || call) throw;
    throw Error(e.kind(), detail::eager_op_error_text(def, attrs, msg));
  }
}

std::string detail::eager_op_error_text(const OpDef& def, const AttrMap& attrs,
                                        const std::string& msg) {
  // TF's wrapper function is named after the op and the lengths of its list inputs and outputs
  // ("__wrapped__AddN_N_3", "__wrapped__IteratorGetNext_output_types_1"), as those fix its
  // signature; the attrs in name order.
  std::map<std::string, int64_t> lengths;
  for (const auto* args : {&def.inputs, &def.outputs}) {
    for (const ArgDef& a : *args) {
      if (!a.number_attr.empty()) lengths[a.number_attr] = attr_int(attrs, a.number_attr);
      if (!a.type_list_attr.empty()) {
        lengths[a.type_list_attr] =
            static_cast<int64_t>(attr_types(attrs, a.type_list_attr).size());
      }
    }
  }
  std::string fn = def.name;
  // With oneDNN on, TF's eager runtime rewrites these ops on float32 to its oneDNN kernels
  // before running them (mkl_eager_op_rewrite), and the wrapper is named after the new op;
  // the "[Op:...]" name stays the original. Checked against TF 2.21 op by op (MaxPool and
  // MaxPoolGrad are not rewritten).
  static const std::map<std::string, std::string> kOneDnnEager = {
      {"MatMul", "__MklMatMul"},
      {"BatchMatMulV2", "__MklBatchMatMulV2"},
      {"Einsum", "__MklEinsum"},
      {"Conv2D", "__MklNativeConv2D"},
      {"Conv2DBackpropInput", "__MklNativeConv2DBackpropInput"},
      {"Conv2DBackpropFilter", "__MklNativeConv2DBackpropFilter"},
      {"DepthwiseConv2dNative", "__MklNativeDepthwiseConv2dNative"},
      {"DepthwiseConv2dNativeBackpropInput", "__MklNativeDepthwiseConv2dNativeBackpropInput"},
      {"DepthwiseConv2dNativeBackpropFilter", "__MklNativeDepthwiseConv2dNativeBackpropFilter"},
      {"AvgPool", "__MklNativeAvgPool"},
      {"FusedBatchNormV3", "__MklNativeFusedBatchNormV3"},
      {"FusedBatchNormGradV3", "__MklNativeFusedBatchNormGradV3"},
  };
  if (auto it = kOneDnnEager.find(def.name); it != kOneDnnEager.end() && attrs.count("T") &&
                                             detail::tf_runs_onednn(attr_type(attrs, "T"))) {
    fn = it->second;
  }
  for (const auto& [attr, n] : lengths) fn += "_" + attr + "_" + std::to_string(n);
  return "{{function_node __wrapped__" + fn +
         "_device_/job:localhost/replica:0/task:0/device:CPU:0}} " + msg + " [Op:" + def.name +
         "]" + EagerErrorName::current();
}

std::vector<Tensor> execute(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs,
                            const std::string& name) {
  return execute(OpRegistry::global().get(op), std::move(inputs), std::move(attrs), name);
}

Tensor execute1(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs,
                const std::string& name) {
  auto outs = execute(op, std::move(inputs), std::move(attrs), name);
  return outs.at(0);
}

// ---- conversion of host values ----

namespace {

struct Flat {
  std::vector<int64_t> shape;
  std::vector<const Value*> leaves;
  bool shape_set = false;
};

void flatten_nested(const Value& v, int depth, std::vector<int64_t>& shape, bool& shape_known,
                    std::vector<const Value*>& leaves) {
  auto k = v.kind();
  if (k == Value::Kind::kList || k == Value::Kind::kTuple) {
    const auto& items = v.items();
    if (static_cast<int>(shape.size()) <= depth) {
      if (shape_known) value_error("Can't convert non-rectangular Python sequence to Tensor.");
      // TensorShape's limit (TF 2.21 aborts on a deeper list; this also bounds the recursion).
      if (depth >= 254) invalid_argument("Too many dimensions in tensor");
      shape.push_back(static_cast<int64_t>(items.size()));
    } else if (shape[static_cast<size_t>(depth)] != static_cast<int64_t>(items.size())) {
      value_error("Can't convert non-rectangular Python sequence to Tensor.");
    }
    if (items.empty()) shape_known = true;
    for (auto& it : items) flatten_nested(it, depth + 1, shape, shape_known, leaves);
    return;
  }
  if (static_cast<int>(shape.size()) != depth) {
    value_error("Can't convert non-rectangular Python sequence to Tensor.");
  }
  shape_known = true;
  leaves.push_back(&v);
}

[[noreturn]] void cannot_convert(const Value& v, DType dt) {
  // TF names the dtype by DataTypeString here: "float", "double", "int32".
  type_error("Cannot convert " + v.repr() + " to EagerTensor of dtype " +
             std::string(dtype_tf_string(dt)));
}

}  // namespace

DType infer_dtype(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kBool:
      return DType::kBool;
    case Value::Kind::kInt: {
      int64_t i = v.as_int();
      return (i > INT32_MAX || i < INT32_MIN) ? DType::kInt64 : DType::kInt32;
    }
    case Value::Kind::kFloat:
      return DType::kFloat32;
    case Value::Kind::kStr:
      return DType::kString;
    case Value::Kind::kTensor:
      return v.as_tensor().dtype();
    case Value::Kind::kVariable:
      return v.as_variable()->dtype();
    case Value::Kind::kList:
    case Value::Kind::kTuple: {
      DType best = DType::kInvalid;
      for (auto& it : v.items()) {
        DType d = infer_dtype(it);
        if (best == DType::kInvalid)
          best = d;
        else if (best != d) {
          auto rank = [](DType x) {
            return x == DType::kBool      ? 0
                   : x == DType::kInt32   ? 1
                   : x == DType::kInt64   ? 2
                   : x == DType::kFloat32 ? 3
                                          : 4;
          };
          if ((best == DType::kString) != (d == DType::kString) || best == DType::kBool ||
              d == DType::kBool) {
            best = DType::kInvalid;
            break;
          }
          best = rank(d) > rank(best) ? d : best;
        }
      }
      return best == DType::kInvalid && v.items().empty() ? DType::kFloat32 : best;
    }
    default:
      return DType::kInvalid;
  }
}

static Tensor host_to_eager(const Value& v, DType dtype) {
  std::vector<int64_t> shape;
  std::vector<const Value*> leaves;
  bool known = false;
  flatten_nested(v, 0, shape, known, leaves);
  DType inferred = infer_dtype(v);
  if (inferred == DType::kInvalid) {
    // Lists holding tensors are packed; anything else is not convertible.
    type_error("Failed to convert elements of " + v.repr() +
               " to Tensor. Consider casting elements to a supported type.");
  }
  if (dtype == DType::kInvalid) dtype = inferred;
  Shape s{shape};
  if (dtype == DType::kString) {
    std::vector<std::string> strs;
    for (auto* l : leaves) {
      if (l->kind() != Value::Kind::kStr) cannot_convert(v, dtype);
      strs.push_back(l->as_str());
    }
    return Tensor::strings(std::move(strs), s);
  }
  for (auto* l : leaves) {
    if (!l->is_number()) cannot_convert(v, dtype);
    if (is_integer(dtype) && l->kind() == Value::Kind::kFloat) cannot_convert(v, dtype);
    if (dtype == DType::kBool && l->kind() != Value::Kind::kBool) cannot_convert(v, dtype);
    if (is_integer(dtype)) {
      int64_t i = l->as_int();
      bool fits = dtype == DType::kInt64 ||
                  (dtype == DType::kInt32 && i >= INT32_MIN && i <= INT32_MAX) ||
                  (dtype == DType::kInt16 && i >= INT16_MIN && i <= INT16_MAX) ||
                  (dtype == DType::kInt8 && i >= INT8_MIN && i <= INT8_MAX) ||
                  (dtype == DType::kUInt8 && i >= 0 && i <= UINT8_MAX);
      if (!fits) cannot_convert(v, dtype);
    }
  }
  Tensor t = Tensor::empty(dtype, s);
  if (is_complex(dtype)) {  // a Python number as a complex element: (x, 0)
    visit_complex(dtype, [&](auto tag) {
      using C = decltype(tag);
      C* p = t.data<C>();
      for (size_t i = 0; i < leaves.size(); ++i)
        p[i] = C(static_cast<typename C::value_type>(leaves[i]->as_double()), 0);
    });
    return t;
  }
  visit_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = t.data<T>();
    for (size_t i = 0; i < leaves.size(); ++i) {
      const Value* l = leaves[i];
      if constexpr (std::is_floating_point_v<T>)
        p[i] = static_cast<T>(l->as_double());
      else
        p[i] = static_cast<T>(l->as_int());
    }
  });
  return t;
}

Tensor read_variable(const std::shared_ptr<VariableState>& var, const std::string& name) {
  Tensor r = execute1("ReadVariableOp", {Tensor::resource(var)}, {{"dtype", var->dtype()}}, name);
  if (r.is_eager()) return r;
  // The handle carries the variable's shape (TF's handle data), so the read has a static shape.
  return current_builder()->refine_shape(r, var->shape());
}

namespace {

bool is_sequence(const Value& v) {
  return v.kind() == Value::Kind::kList || v.kind() == Value::Kind::kTuple;
}

bool holds_tensor(const Value& v) {
  if (v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable) return true;
  if (!is_sequence(v)) return false;
  for (const Value& it : v.items())
    if (holds_tensor(it)) return true;
  return false;
}

DType first_tensor_dtype(const Value& v) {
  if (v.kind() == Value::Kind::kTensor) return v.as_tensor().dtype();
  if (v.kind() == Value::Kind::kVariable) return v.as_variable()->dtype();
  if (!is_sequence(v)) return DType::kInvalid;
  for (const Value& it : v.items()) {
    DType d = first_tensor_dtype(it);
    if (d != DType::kInvalid) return d;
  }
  return DType::kInvalid;
}

// TF's _cast_nested_seqs_to_dtype: every tensor of a (nested) list whose dtype is not `dtype`
// becomes a Cast to it, in the current scope and in flatten order.
Value cast_tensors_to(const Value& v, DType dtype) {
  if (v.kind() == Value::Kind::kTensor) return Value(cast(v.as_tensor(), dtype));
  if (v.kind() == Value::Kind::kVariable && v.as_variable()->dtype() != dtype)
    return Value(cast(detail::convert_input("Cast", v, DType::kInvalid, "x"), dtype));
  if (!is_sequence(v)) return v;
  ValueList items;
  items.reserve(v.items().size());
  for (const Value& it : v.items()) items.push_back(cast_tensors_to(it, dtype));
  return v.kind() == Value::Kind::kList ? Value::list(std::move(items))
                                        : Value::tuple(std::move(items));
}

}  // namespace

// TF's autopacking of a list that holds tensors: in a name scope `name`, the tensors as they are,
// Python values Consts named by their position ("packed/1"), nested lists packed the same way
// ("packed/0"); the Pack takes the scope's name. The dtype is the first tensor's unless given;
// a given dtype other than the first tensor's casts the tensors first, outside the scope (TF's
// _autopacking_conversion_function), so tf.zeros([n]) takes an int64 n.
Tensor autopack(const Value& list, DType dtype, const std::string& name) {
  if (dtype != DType::kInvalid && dtype != first_tensor_dtype(list))
    return autopack(cast_tensors_to(list, dtype), dtype, name);
  if (dtype == DType::kInvalid) dtype = first_tensor_dtype(list);
  detail::OpScope s(name);
  std::vector<Tensor> parts;
  parts.reserve(list.items().size());
  for (size_t i = 0; i < list.items().size(); ++i) {
    const Value& it = list.items()[i];
    if (it.kind() == Value::Kind::kTensor || it.kind() == Value::Kind::kVariable) {
      parts.push_back(convert_to_tensor(it, dtype));
    } else if (is_sequence(it) && holds_tensor(it)) {
      parts.push_back(autopack(it, dtype, std::to_string(i)));
    } else {
      parts.push_back(convert_to_tensor(it, dtype, std::to_string(i)));
    }
  }
  return execute1("Pack", parts, {{"axis", int64_t{0}}}, s.op_name());
}

Tensor convert_to_tensor(const Value& v, DType dtype, const std::string& name) {
  mark_context_initialized();  // TF's first tensor initializes its context
  switch (v.kind()) {
    case Value::Kind::kTensor: {
      const Tensor& t = v.as_tensor();
      if (dtype != DType::kInvalid && t.dtype() != dtype) {
        value_error("Tensor conversion requested dtype " + std::string(dtype_name(dtype)) +
                    " for Tensor with dtype " + std::string(dtype_name(t.dtype())) + ": " +
                    t.repr());
      }
      return t;
    }
    case Value::Kind::kVariable: {
      Tensor r = read_variable(v.as_variable());
      if (dtype != DType::kInvalid && r.dtype() != dtype) return convert_to_tensor(r, dtype, name);
      return r;
    }
    case Value::Kind::kList:
    case Value::Kind::kTuple: {
      bool has_tensor = false;
      for (auto& it : v.items())
        if (it.kind() == Value::Kind::kTensor || it.kind() == Value::Kind::kVariable)
          has_tensor = true;
      if (has_tensor) return autopack(v, dtype, name == "Const" ? "packed" : name);
      break;
    }
    default:
      break;
  }
  const Tensor* array = as_host_array(v);
  Tensor eager = !array                                                ? host_to_eager(v, dtype)
                 : dtype == DType::kInvalid || array->dtype() == dtype ? *array
                                                                       : astype(*array, dtype);
  if (GraphBuilder* b = current_builder())
    return b->constant(eager, WrapperName::rename(name, true));
  return eager;
}

Value host_array(Tensor value, bool is_ndarray) {
  return Value(std::shared_ptr<Object>(std::make_shared<HostArray>(std::move(value), is_ndarray)));
}

const HostArray* host_array_object(const Value& v) {
  if (v.kind() != Value::Kind::kObject) return nullptr;
  return dynamic_cast<const HostArray*>(v.as_object().get());
}

const Tensor* as_host_array(const Value& v) {
  const HostArray* a = host_array_object(v);
  return a ? &a->value() : nullptr;
}

Tensor astype(const Tensor& t, DType dtype) {
  if (t.dtype() == dtype) return t;
  InitScope eager;
  return cast(t, dtype);
}

Tensor constant(const Value& v, DType dtype, const std::string& name) {
  if (v.kind() == Value::Kind::kTensor && dtype != DType::kInvalid &&
      v.as_tensor().dtype() != dtype) {
    return cast(v.as_tensor(), dtype);
  }
  return convert_to_tensor(v, dtype, name);
}

}  // namespace tfs
