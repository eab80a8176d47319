// The generic op wrapper (TF's _apply_op_helper and eager fast path) and the `name=` override
// of the front ends that name their nodes themselves.
#include <map>

#include <optional>

#include "op_scope.h"
#include "tfscope/graph_builder.h"
#include "tfscope/host_array.h"
#include "tfscope/ops.h"

namespace tfs {

namespace {
thread_local WrapperName* g_wrapper_name = nullptr;

bool is_tensorish(const Value& v) {
  return v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable;
}

bool is_sequence(const Value& v) {
  return v.kind() == Value::Kind::kList || v.kind() == Value::Kind::kTuple;
}

const TypeAttrDef* type_attr_def(const OpDef& def, const std::string& name) {
  for (const auto& t : def.type_attrs)
    if (t.name == name) return &t;
  return nullptr;
}

// ops.convert_to_tensor(v, preferred_dtype=p): p where the value converts to it, else its own.
Tensor convert_preferring(const Value& v, DType preferred, const std::string& name) {
  if (preferred != DType::kInvalid) {
    try {
      return convert_to_tensor(v, preferred, name);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kTypeError && e.kind() != ErrorKind::kValueError) throw;
    }
  }
  return convert_to_tensor(v, DType::kInvalid, name);
}

// The items of a list input, as TF takes them: a list or tuple, or one tensor.
std::vector<const Value*> list_items(const OpDef& def, const ArgDef& a, const Value& v) {
  std::vector<const Value*> items;
  if (is_sequence(v)) {
    for (const Value& it : v.items()) items.push_back(&it);
  } else if (is_tensorish(v)) {
    items.push_back(&v);
  } else {
    type_error("Expected list for '" + a.name + "' argument to '" + def.name + "' Op, not " +
               v.repr() + ".");
  }
  return items;
}

// TF's fast path takes an operand that is an EagerTensor, a resource variable, an ndarray or a
// Python number (CheckOneInput); anything else (a str, a list, a numpy scalar, None) sends the
// generated wrapper down eager_fallback.
bool fast_path_operand(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kTensor:
    case Value::Kind::kVariable:
    case Value::Kind::kBool:
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      return true;
    default: {
      const HostArray* h = host_array_object(v);
      return h && h->is_ndarray();
    }
  }
}

bool takes_fast_path(const OpDef& def, const std::vector<Value>& inputs) {
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    const ArgDef& a = def.inputs[i];
    const Value& v = inputs[i];
    if (a.number_attr.empty() && a.type_list_attr.empty()) {
      if (!fast_path_operand(v)) return false;
      continue;
    }
    if (!is_sequence(v)) return false;
    for (const Value& it : v.items())
      if (!fast_path_operand(it)) return false;
  }
  return true;
}

// `with ops.name_scope(name)` as the generated wrapper opens it: a name ending in "/" is a
// scope that exists already, re-entered as it is (the op then takes exactly that name); any
// other name (the op's type when empty) is made unique. Graph mode only.
class WrapperScope {
 public:
  explicit WrapperScope(const std::string& name) {
    if (!name.empty() && name.back() == '/') {
      exact_ = current_builder();
      if (exact_) exact_->push_scope(name.substr(0, name.size() - 1));
      op_name_ = name;
    } else {
      scope_.emplace(name);
      op_name_ = scope_->op_name();
    }
  }
  ~WrapperScope() {
    if (exact_) exact_->pop_scope();
  }
  WrapperScope(const WrapperScope&) = delete;
  WrapperScope& operator=(const WrapperScope&) = delete;
  const std::string& op_name() const { return op_name_; }

 private:
  GraphBuilder* exact_ = nullptr;
  std::optional<detail::OpScope> scope_;
  std::string op_name_;
};

}  // namespace

WrapperName::WrapperName(std::string base, std::string name)
    : base_(std::move(base)), name_(std::move(name)), previous_(g_wrapper_name) {
  g_wrapper_name = this;
}

WrapperName::~WrapperName() {
  g_wrapper_name = previous_;
}

std::string WrapperName::rename(const std::string& requested, bool claim) {
  WrapperName* w = g_wrapper_name;
  if (!w || w->used_ || requested != w->base_) return requested;
  if (claim) w->used_ = true;
  return w->name_;
}

std::vector<Tensor> apply_op(const std::string& op, const std::vector<Value>& inputs, AttrMap attrs,
                             const std::string& name) {
  const OpDef& def = OpRegistry::global().get(op);
  if (inputs.size() != def.inputs.size()) {
    type_error(op + " takes " + std::to_string(def.inputs.size()) + " inputs, got " +
               std::to_string(inputs.size()) + ".");
  }
  const bool eager = current_builder() == nullptr;
  // The dtype each type attr has so far: given, or fixed by an input converted before. Eagerly
  // TF's fast path first takes it from any tensor input of that attr.
  std::map<std::string, DType> known;
  for (const auto& [k, v] : attrs)
    if (std::holds_alternative<DType>(v)) known[k] = std::get<DType>(v);
  if (eager) {
    for (size_t i = 0; i < def.inputs.size(); ++i) {
      const ArgDef& a = def.inputs[i];
      if (a.type_attr.empty() || known.count(a.type_attr)) continue;
      const Value& v = inputs[i];
      if (is_tensorish(v)) {
        known[a.type_attr] = convert_to_tensor(v).dtype();
      } else if (!a.number_attr.empty() && is_sequence(v)) {
        for (const Value& it : v.items()) {
          if (!is_tensorish(it)) continue;
          known[a.type_attr] = convert_to_tensor(it).dtype();
          break;
        }
      }
    }
  }
  // An eager error ends " name: <name>" (the name given, as TF's fast path prints it), or at
  // "[Op:X]" when an operand the fast path does not take sends TF's wrapper down eager_fallback.
  EagerErrorName error_name(takes_fast_path(def, inputs) ? " name: " + name : std::string());
  WrapperScope scope(name.empty() ? op : name);
  std::vector<Tensor> flat;
  auto convert = [&](const ArgDef& a, const Value& v, const std::string& param) {
    if (host_array_object(v)) {  // numpy: its own dtype unless the input's is known
      DType d = a.fixed;
      if (d == DType::kInvalid && !a.type_attr.empty()) {
        auto it = known.find(a.type_attr);
        if (it != known.end()) d = it->second;
      }
      Tensor r = convert_to_tensor(v, d, param);
      if (!a.type_attr.empty()) known.emplace(a.type_attr, r.dtype());
      return r;
    }
    if (a.fixed != DType::kInvalid) return detail::convert_operand(v, a.fixed, param, op);
    if (!a.type_attr.empty()) {
      auto it = known.find(a.type_attr);
      if (it != known.end()) return detail::convert_operand(v, it->second, param, op);
      const TypeAttrDef* t = type_attr_def(def, a.type_attr);
      DType preferred = t && t->default_type ? *t->default_type : DType::kInvalid;
      Tensor r = is_tensorish(v) ? convert_to_tensor(v) : convert_preferring(v, preferred, param);
      known[a.type_attr] = r.dtype();
      return r;
    }
    return is_tensorish(v) ? convert_to_tensor(v) : convert_to_tensor(v, DType::kInvalid, param);
  };
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    const ArgDef& a = def.inputs[i];
    if (a.number_attr.empty() && a.type_list_attr.empty()) {
      flat.push_back(convert(a, inputs[i], a.name));
      continue;
    }
    std::vector<const Value*> items = list_items(def, a, inputs[i]);
    // A list of one type (concat's values) takes its dtype from its first tensor, in a graph
    // too (op_def_library), so [[0], <int64 tensor>] converts the [0] to int64.
    if (!a.number_attr.empty() && !a.type_attr.empty() && !known.count(a.type_attr)) {
      for (const Value* it : items) {
        if (it->kind() != Value::Kind::kTensor) continue;
        known[a.type_attr] = it->as_tensor().dtype();
        break;
      }
    }
    for (size_t j = 0; j < items.size(); ++j) {
      // TF names the converted items of a list input "<arg>_<index>" ("concat/values_1").
      flat.push_back(convert(a, *items[j], a.name + "_" + std::to_string(j)));
    }
    if (!a.number_attr.empty() && !attrs.count(a.number_attr))
      attrs[a.number_attr] = static_cast<int64_t>(items.size());
  }
  return execute(def, std::move(flat), std::move(attrs), scope.op_name());
}

}  // namespace tfs
