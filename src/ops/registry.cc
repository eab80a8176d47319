// The op registry, attr access, dtype resolution (TF's op_def_library rules) and the generic
// parts of shape inference and kernel invocation.
#include <algorithm>
#include <atomic>
#include <sstream>

#include "buffer_reuse.h"
#include "denormal.h"
#include "kernel_util.h"
#include "tf_op_defs.h"
#include "tfscope/cpu_info.h"
#include "tfscope/detail/kernel_run.h"
#include "tfscope/format.h"
#include "tfscope/op_def.h"
#include "tfscope/ops.h"

namespace tfs {

// Each op family registers its ops from static initialisers in its own file. Referencing one
// symbol per family from here makes the linker keep those files out of the static library.
namespace detail {
void anchor_math_ops();
void anchor_array_ops();
void anchor_array_basic_ops();
void anchor_nn_ops();
void anchor_state_ops();
void anchor_io_ops();
void anchor_control_ops();
void anchor_random_ops();
void anchor_reduction_ops();
void anchor_math_unary_ops();
void anchor_list_ops();
void anchor_list_extra_ops();
void anchor_check_ops();
void anchor_string_ops();
void anchor_string_text_ops();
void anchor_ragged_ops();
void anchor_complex_ops();
void anchor_py_func_ops();
void anchor_math_extra_ops();
void anchor_array_extra_ops();
void anchor_math_stats_ops();
void anchor_array_index_ops();
void anchor_array_pad_ops();
void anchor_conv_ops();
void anchor_pool_ops();
void anchor_einsum_ops();
void anchor_grad_kernel_ops();
void anchor_xent_ops();
void anchor_grad_support_ops();
void anchor_sparse_update_ops();
void anchor_string_unicode_ops();
}  // namespace detail

OpRegistry& OpRegistry::global() {
  static OpRegistry* r = new OpRegistry();
  static bool anchored = [] {
    detail::anchor_math_ops();
    detail::anchor_array_ops();
    detail::anchor_array_basic_ops();
    detail::anchor_nn_ops();
    detail::anchor_state_ops();
    detail::anchor_io_ops();
    detail::anchor_control_ops();
    detail::anchor_random_ops();
    detail::anchor_reduction_ops();
    detail::anchor_math_unary_ops();
    detail::anchor_list_ops();
    detail::anchor_list_extra_ops();
    detail::anchor_check_ops();
    detail::anchor_string_ops();
    detail::anchor_string_text_ops();
    detail::anchor_string_unicode_ops();
    detail::anchor_ragged_ops();
    detail::anchor_complex_ops();
    detail::anchor_py_func_ops();
    detail::anchor_math_extra_ops();
    detail::anchor_array_extra_ops();
    detail::anchor_math_stats_ops();
    detail::anchor_array_index_ops();
    detail::anchor_array_pad_ops();
    detail::anchor_conv_ops();
    detail::anchor_pool_ops();
    detail::anchor_einsum_ops();
    detail::anchor_grad_kernel_ops();
    detail::anchor_xent_ops();
    detail::anchor_grad_support_ops();
    detail::anchor_sparse_update_ops();
    return true;
  }();
  (void)anchored;
  return *r;
}

namespace {

// A registered kernel as every caller but a plan runs it: as TF's kernels run, denormals flushed
// and read as zero (denormal.h). A plan holds one guard for its whole run and calls `kernel`.
struct GuardedKernel {
  Kernel kernel;
  void operator()(OpKernelContext& ctx) const {
    detail::ScopedFlushDenormal flush;
    kernel(ctx);
  }
};

std::map<std::string, detail::KernelPreparer, std::less<>>& kernel_preparers() {
  static auto* preparers = new std::map<std::string, detail::KernelPreparer, std::less<>>;
  return *preparers;
}

}  // namespace

void OpRegistry::add(OpDef def) {
  std::string name = def.name;
  if (def.kernel) def.kernel = GuardedKernel{std::move(def.kernel)};
  ops_[name] = std::make_unique<OpDef>(std::move(def));
}

namespace detail {

PreparedKernelRegistration::PreparedKernelRegistration(const char* op, KernelPreparer preparer) {
  kernel_preparers()[op] = preparer;
}

Kernel plan_kernel(const OpDef& def, const AttrMap& attrs) {
  auto it = kernel_preparers().find(def.name);
  if (it != kernel_preparers().end()) {
    try {
      return it->second(attrs);
    } catch (const Error&) {
      // Attrs the op rejects: its own kernel says so when the node runs, as TF's does.
    }
  }
  const auto* guarded = def.kernel.target<GuardedKernel>();
  return guarded ? guarded->kernel : def.kernel;
}

}  // namespace detail

const OpDef* OpRegistry::find(const std::string& name) const {
  auto it = ops_.find(name);
  return it == ops_.end() ? nullptr : it->second.get();
}

const OpDef& OpRegistry::get(const std::string& name) const {
  const OpDef* d = find(name);
  if (!d) {
    throw Error(ErrorKind::kNotFound,
                "Op type not registered '" + name + "' in binary running tfscope.");
  }
  return *d;
}

std::vector<std::string> OpRegistry::names() const {
  std::vector<std::string> out;
  for (auto& [k, v] : ops_) out.push_back(k);
  return out;
}

// ---- attrs ----

namespace {

template <typename T>
const T& attr_get(const AttrMap& a, const std::string& name, const char* kind) {
  auto it = a.find(name);
  if (it == a.end()) invalid_argument("[ops] missing attr '" + name + "'");
  const T* v = std::get_if<T>(&it->second);
  if (!v) invalid_argument("[ops] attr '" + name + "' is not of type " + kind);
  return *v;
}

}  // namespace

int64_t attr_int(const AttrMap& a, const std::string& name) {
  return attr_get<int64_t>(a, name, "int");
}
int64_t attr_int_or(const AttrMap& a, const std::string& name, int64_t dflt) {
  return a.count(name) ? attr_int(a, name) : dflt;
}
std::string attr_string_or(const AttrMap& a, const std::string& name, const std::string& dflt) {
  return a.count(name) ? attr_string(a, name) : dflt;
}
float attr_float(const AttrMap& a, const std::string& name) {
  return attr_get<float>(a, name, "float");
}
bool attr_bool_or(const AttrMap& a, const std::string& name, bool dflt) {
  return a.count(name) ? attr_get<bool>(a, name, "bool") : dflt;
}
DType attr_type(const AttrMap& a, const std::string& name) {
  return attr_get<DType>(a, name, "type");
}
const std::string& attr_string(const AttrMap& a, const std::string& name) {
  return attr_get<std::string>(a, name, "string");
}
const std::vector<int64_t>& attr_ints(const AttrMap& a, const std::string& name) {
  return attr_get<std::vector<int64_t>>(a, name, "list(int)");
}
const std::vector<DType>& attr_types(const AttrMap& a, const std::string& name) {
  return attr_get<std::vector<DType>>(a, name, "list(type)");
}
const Tensor& attr_tensor(const AttrMap& a, const std::string& name) {
  return attr_get<Tensor>(a, name, "tensor");
}
const PartialShape& attr_shape(const AttrMap& a, const std::string& name) {
  return attr_get<PartialShape>(a, name, "shape");
}
const FuncAttr& attr_func(const AttrMap& a, const std::string& name) {
  return attr_get<FuncAttr>(a, name, "func");
}

std::string attr_summary(const AttrValue& v) {
  struct V {
    std::string operator()(std::monostate) const { return ""; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(float f) const {
      std::ostringstream os;
      os << f;
      return os.str();
    }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    std::string operator()(DType d) const { return dtype_enum_name(d); }
    std::string operator()(const std::vector<int64_t>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
      return s + "]";
    }
    std::string operator()(const PartialShape& p) const {
      if (!p.has_rank()) return "<unknown>";
      std::string s = "[";
      for (int i = 0; i < p.rank(); ++i)
        s += (i ? "," : "") + (p.dim(i) < 0 ? std::string("?") : std::to_string(p.dim(i)));
      return s + "]";
    }
    std::string operator()(const Tensor& t) const {
      return "<Tensor<type: " + std::string(dtype_tf_string(t.dtype())) +
             " shape: " + (*this)(t.shape()) + ">>";
    }
    std::string operator()(const std::vector<DType>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + dtype_enum_name(v[i]);
      return s + "]";
    }
    std::string operator()(const FuncAttr& f) const { return f.name + "[]"; }
    std::string operator()(const std::vector<PartialShape>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + (*this)(v[i]);
      return s + "]";
    }
    std::string operator()(const std::vector<std::string>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + (*this)(v[i]);
      return s + "]";
    }
  };
  return std::visit(V{}, v);
}

// ---- dtype resolution ----

std::vector<int> input_arity(const OpDef& def, const AttrMap& attrs, int total_inputs) {
  std::vector<int> arity;
  int fixed = 0, variadic = -1;
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    const ArgDef& a = def.inputs[i];
    if (!a.number_attr.empty()) {
      auto it = attrs.find(a.number_attr);
      if (it != attrs.end() && std::holds_alternative<int64_t>(it->second)) {
        arity.push_back(static_cast<int>(std::get<int64_t>(it->second)));
        fixed += arity.back();
      } else {
        arity.push_back(-1);
        variadic = static_cast<int>(i);
      }
    } else if (!a.type_list_attr.empty()) {
      auto it = attrs.find(a.type_list_attr);
      if (it != attrs.end() && std::holds_alternative<std::vector<DType>>(it->second)) {
        arity.push_back(static_cast<int>(std::get<std::vector<DType>>(it->second).size()));
        fixed += arity.back();
      } else {
        arity.push_back(-1);
        variadic = static_cast<int>(i);
      }
    } else {
      arity.push_back(1);
      fixed += 1;
    }
  }
  if (variadic >= 0) arity[static_cast<size_t>(variadic)] = total_inputs - fixed;
  return arity;
}

namespace {

std::string allowed_list(const TypeAttrDef& t) {
  std::string s;
  for (size_t i = 0; i < t.allowed.size(); ++i) {
    s += (i ? ", " : "") + std::string(dtype_name(t.allowed[i]));
  }
  return s;
}

// A dtype TF's own OpDef rejects: TF's texts (eagerly the attr check's InvalidArgumentError with
// the OpDef's summary, while building a graph op_def_library's TypeError), TF's allowed lists.
void reject_if_tf_does(const OpDef& def, const ArgDef& a, DType got, bool eager) {
  const detail::TfOpDef* tf = detail::tf_op_def(def.name);
  const char* allowed = tf ? detail::tf_allowed_dtypes(*tf, a.type_attr) : nullptr;
  if (!allowed || detail::dtype_in_list(dtype_tf_string(got), allowed)) return;
  if (eager) {
    invalid_argument(
        "Value for attr '" + a.type_attr + "' of " + std::string(dtype_tf_string(got)) +
        " is not in the list of allowed values: " + allowed + "\n\t; NodeDef: {{node " + def.name +
        "}}; " + tf->summary + " [Op:" + def.name + "]" + EagerErrorName::current());
  }
  type_error("Value passed to parameter '" + a.name + "' has DataType " +
             std::string(dtype_name(got)) +
             " not in list of allowed values: " + detail::python_dtype_list(allowed));
}

const TypeAttrDef* find_type_attr(const OpDef& def, const std::string& name) {
  for (auto& t : def.type_attrs)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

std::vector<DType> resolve_output_dtypes(const OpDef& def, std::span<const DType> in,
                                         AttrMap& attrs, bool eager) {
  std::vector<int> arity = input_arity(def, attrs, static_cast<int>(in.size()));
  // Which input first fixed each type attr (for the "does not match" text).
  std::map<std::string, std::string> first_arg;
  size_t k = 0;
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    const ArgDef& a = def.inputs[i];
    int n = arity[i];
    if (!a.number_attr.empty() && !attrs.count(a.number_attr)) attrs[a.number_attr] = int64_t{n};
    if (!a.type_list_attr.empty()) {
      std::vector<DType> ts(in.begin() + static_cast<long>(k),
                            in.begin() + static_cast<long>(k) + n);
      if (!attrs.count(a.type_list_attr)) attrs[a.type_list_attr] = ts;
      k += static_cast<size_t>(n);
      continue;
    }
    for (int j = 0; j < n; ++j, ++k) {
      DType got = in[k];
      if (a.fixed != DType::kInvalid) {
        if (got != a.fixed) {
          if (eager) {
            invalid_argument("cannot compute " + def.name + " as input #" + std::to_string(k) +
                             "(zero-based) was expected to be a " +
                             std::string(dtype_tf_string(a.fixed)) + " tensor but is a " +
                             std::string(dtype_tf_string(got)) + " tensor [Op:" + def.name +
                             "] name: ");
          }
          type_error("Input '" + a.name + "' of '" + def.name + "' Op has type " +
                     std::string(dtype_name(got)) + " that does not match expected type of " +
                     std::string(dtype_name(a.fixed)) + ".");
        }
        continue;
      }
      auto it = attrs.find(a.type_attr);
      if (it != attrs.end() && std::holds_alternative<DType>(it->second)) {
        DType want = std::get<DType>(it->second);
        if (got != want) {
          if (eager) {
            invalid_argument("cannot compute " + def.name + " as input #" + std::to_string(k) +
                             "(zero-based) was expected to be a " +
                             std::string(dtype_tf_string(want)) + " tensor but is a " +
                             std::string(dtype_tf_string(got)) + " tensor [Op:" + def.name +
                             "] name: ");
          }
          auto fa = first_arg.find(a.type_attr);
          if (fa != first_arg.end()) {
            type_error("Input '" + a.name + "' of '" + def.name + "' Op has type " +
                       std::string(dtype_name(got)) + " that does not match type " +
                       std::string(dtype_name(want)) + " of argument '" + fa->second + "'.");
          }
          type_error("Input '" + a.name + "' of '" + def.name + "' Op has type " +
                     std::string(dtype_name(got)) + " that does not match expected type of " +
                     std::string(dtype_name(want)) + ".");
        }
      } else {
        const TypeAttrDef* t = find_type_attr(def, a.type_attr);
        if (t && !t->allowed.empty() &&
            std::find(t->allowed.begin(), t->allowed.end(), got) == t->allowed.end()) {
          reject_if_tf_does(def, a, got, eager);
          // TF has a kernel for it and tfscope has none.
          if (eager) {
            throw Error(ErrorKind::kNotFound,
                        "Could not find device for node: {{node " + def.name + "}} = " + def.name +
                            "[" + a.type_attr + "=" + dtype_enum_name(got) +
                            "]\nAll kernels registered for op " + def.name +
                            ":\n  <no registered kernels>\n [Op:" + def.name + "] name: ");
          }
          type_error("Value passed to parameter '" + a.name + "' has DataType " +
                     std::string(dtype_name(got)) +
                     " not in list of allowed values: " + allowed_list(*t));
        }
        attrs[a.type_attr] = got;
        first_arg[a.type_attr] = a.name;
      }
    }
  }
  // Type attrs not fixed by inputs take their defaults.
  for (auto& t : def.type_attrs) {
    if (!attrs.count(t.name) && t.default_type) attrs[t.name] = *t.default_type;
  }
  std::vector<DType> out;
  for (auto& o : def.outputs) {
    if (!o.type_list_attr.empty()) {
      for (DType d : attr_types(attrs, o.type_list_attr)) out.push_back(d);
      continue;
    }
    int n = o.number_attr.empty() ? 1 : static_cast<int>(attr_int(attrs, o.number_attr));
    DType d = o.fixed != DType::kInvalid ? o.fixed : attr_type(attrs, o.type_attr);
    for (int j = 0; j < n; ++j) out.push_back(d);
  }
  return out;
}

// ---- shape inference ----

std::string InferenceContext::input_shapes_text() const {
  std::string s;
  for (size_t i = 0; i < input_shapes.size(); ++i) {
    const PartialShape& p = input_shapes[i];
    s += i ? ", " : "";
    if (!p.has_rank()) {
      s += "?";
      continue;
    }
    s += "[";
    for (int d = 0; d < p.rank(); ++d)
      s += (d ? "," : "") + (p.dim(d) < 0 ? std::string("?") : std::to_string(p.dim(d)));
    s += "]";
  }
  return s;
}

const Tensor* InferenceContext::value(int i) const {
  if (requested.size() < input_values.size()) requested.resize(input_values.size(), 0);
  if (requested[static_cast<size_t>(i)] == 0) requested[static_cast<size_t>(i)] = 1;
  return input_values[static_cast<size_t>(i)];
}

const Tensor* InferenceContext::value_as_shape(int i) const {
  if (requested.size() < input_values.size()) requested.resize(input_values.size(), 0);
  requested[static_cast<size_t>(i)] = 2;
  const size_t k = static_cast<size_t>(i);
  if (k < input_shape_values.size() && input_shape_values[k] && !input_values[k])
    return input_shape_values[k];
  return input_values[k];
}

namespace {

// Tensor::SummarizeValue(256) of a small integer or float constant: "2", "0 1".
std::string summarize_value(const Tensor& t) {
  std::string out;
  const int64_t n = std::min<int64_t>(t.num_elements(), 256);
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T* p = t.data<T>();
    for (int64_t k = 0; k < n; ++k) {
      if (k) out += " ";
      if constexpr (std::is_same_v<T, bool>) {
        out += p[k] ? "1" : "0";
      } else if constexpr (std::is_floating_point_v<T>) {
        out += shortest_float_str(static_cast<double>(p[k]), std::is_same_v<T, float>);
      } else {
        out += std::to_string(static_cast<int64_t>(p[k]));
      }
    }
  });
  if (t.num_elements() > 256) out += "...";
  return out;
}

// A shape tensor as a partial shape: "[5]", "[?,3]"; empty for an unknown rank (-1).
std::string shape_tensor_text(const Tensor& t) {
  if (t.eager_shape().rank() == 0) return "";
  return detail::shape_text(PartialShape(detail::tensor_ints(t)));
}

}  // namespace

void InferenceContext::fail(const std::string& msg) const {
  if (node_summary.empty()) invalid_argument(msg);
  std::string values, shapes;
  for (size_t i = 0; i < requested.size() && i < input_values.size(); ++i) {
    const Tensor* t = input_values[i];
    if (!t && requested[i] == 2 && i < input_shape_values.size()) t = input_shape_values[i];
    if (!t || requested[i] == 0) continue;
    if (t->dtype() == DType::kString || t->dtype() == DType::kResource ||
        t->dtype() == DType::kVariant)
      continue;
    if (requested[i] == 2) {
      std::string s = shape_tensor_text(*t);
      if (!s.empty())
        shapes += (shapes.empty() ? "" : ",") + ("input[" + std::to_string(i) + "] = " + s);
    } else {
      values += (values.empty() ? "" : ", ") +
                ("input[" + std::to_string(i) + "] = <" + summarize_value(*t) + ">");
    }
  }
  std::string context = " for '" + node_summary + "' with input shapes: " + input_shapes_text();
  if (!values.empty()) context += " and with computed input tensors: " + values;
  if (!shapes.empty()) context += " and with input tensors computed as partial shapes: " + shapes;
  value_error(msg + context + ".");
}

void infer_shapes(const OpDef& def, InferenceContext& ctx) {
  ctx.output_shapes.assign(ctx.output_dtypes.size(), PartialShape());
  if (def.shape_fn) def.shape_fn(ctx);
}

// ---- kernels ----

namespace {

// Shape equality without a call to memcmp: the shapes compared are short.
bool same_dims(const Shape& a, std::span<const int64_t> dims) {
  if (static_cast<size_t>(a.rank()) != dims.size()) return false;
  for (int d = 0; d < a.rank(); ++d) {
    if (a.dim(d) != dims[static_cast<size_t>(d)]) return false;
  }
  return true;
}

// Output i of `dtype` and dims `dims` (`shape`, where the caller has one).
Tensor& allocate(OpKernelContext& ctx, int i, DType dtype, std::span<const int64_t> dims,
                 const Shape* shape) {
  auto& outs = *ctx.outputs;
  if (outs.size() <= static_cast<size_t>(i)) outs.resize(static_cast<size_t>(i) + 1);
  if (i < detail::offered_count) {
    // The buffer this output had in the plan's last run (detail/kernel_run.h).
    Tensor& spare = detail::offered_outputs[i];
    if (spare.defined() && spare.dtype() == dtype && same_dims(spare.eager_shape(), dims) &&
        detail::buffer_unshared(spare)) {
      outs[static_cast<size_t>(i)] = std::move(spare);
      return outs[static_cast<size_t>(i)];
    }
  }
  try {
    outs[static_cast<size_t>(i)] = Tensor::empty(
        dtype, shape ? *shape : Shape(std::vector<int64_t>(dims.begin(), dims.end())));
  } catch (const std::bad_alloc&) {
    std::string text;
    for (int64_t d : dims) text += (text.empty() ? "" : ",") + std::to_string(d);
    throw_error(ErrorKind::kResourceExhausted,
                "OOM when allocating tensor with shape[" + text + "] and type " +
                    std::string(dtype_tf_string(dtype)) +
                    " on /job:localhost/replica:0/task:0/device:CPU:0 by allocator " +
                    (tf_onednn_enabled() ? "mklcpu" : "cpu"));
  }
  return outs[static_cast<size_t>(i)];
}

}  // namespace

// A buffer the allocator cannot give (or whose size overflows) fails the op as TF's allocator
// does, instead of reaching the kernel; TF's CPU allocator is "mklcpu" when oneDNN is on.
Tensor& OpKernelContext::allocate_output(int i, DType dtype, const Shape& shape) {
  return allocate(*this, i, dtype, shape.dims(), &shape);
}

Tensor& OpKernelContext::allocate_output(int i, DType dtype, std::initializer_list<int64_t> dims) {
  return allocate(*this, i, dtype, std::span<const int64_t>(dims.begin(), dims.size()), nullptr);
}

void OpKernelContext::set_output(int i, Tensor t) {
  auto& outs = *outputs;
  if (outs.size() <= static_cast<size_t>(i)) outs.resize(static_cast<size_t>(i) + 1);
  outs[static_cast<size_t>(i)] = std::move(t);
}

void OpKernelContext::fail(const std::string& msg) const {
  invalid_argument(msg);
}

namespace {

std::atomic<uint64_t> g_kernel_state_epoch{1};

// TF's eager kernel cache, for the kernels that keep state: one per op name and attrs (so two
// eager RandomUniform calls with the same seeds continue one generator).
class EagerKernelStates {
 public:
  static EagerKernelStates& global() {
    static EagerKernelStates* states = new EagerKernelStates;
    return *states;
  }
  std::shared_ptr<KernelStateSlot> slot(const OpDef& def, const AttrMap& attrs) {
    std::string key = def.name;
    for (const auto& [name, value] : attrs) key += "|" + name + "=" + attr_summary(value);
    std::lock_guard<std::mutex> lock(mu_);
    auto& slot = slots_[key];
    if (!slot) slot = std::make_shared<KernelStateSlot>();
    return slot;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    slots_.clear();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<KernelStateSlot>> slots_;
};

}  // namespace

uint64_t kernel_state_epoch() {
  return g_kernel_state_epoch.load();
}

void clear_kernel_states() {
  EagerKernelStates::global().clear();
  ++g_kernel_state_epoch;
}

std::vector<Tensor> run_kernel(const OpDef& def, std::span<const Tensor> inputs,
                               const AttrMap& attrs, FunctionRuntime* runtime,
                               const std::string& node_name) {
  std::shared_ptr<KernelStateSlot> state;
  if (def.keeps_state) state = EagerKernelStates::global().slot(def, attrs);
  std::vector<Tensor> outputs;
  OpKernelContext ctx;
  ctx.inputs = inputs;
  ctx.attrs = &attrs;
  ctx.outputs = &outputs;
  ctx.runtime = runtime;
  ctx.node_name = &node_name;
  ctx.op_name = &def.name;
  ctx.state = state.get();
  if (!def.kernel) {
    throw Error(ErrorKind::kUnimplemented, "[ops] " + def.name + " has no CPU kernel");
  }
  def.kernel(ctx);
  return outputs;
}

}  // namespace tfs
