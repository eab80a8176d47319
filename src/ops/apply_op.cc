// The generic op wrapper (TF's _apply_op_helper and eager fast path) and the `name=` override
// of the front ends that name their nodes themselves.
#include <map>

#include "op_scope.h"
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

}  // namespace

WrapperName::WrapperName(std::string base, std::string name)
    : base_(std::move(base)), name_(std::move(name)), previous_(g_wrapper_name) {
  g_wrapper_name = this;
}

WrapperName::~WrapperName() { g_wrapper_name = previous_; }

std::string WrapperName::rename(const std::string& requested, bool claim) {
  WrapperName* w = g_wrapper_name;
  if (!w || w->used_ || requested != w->base_) return requested;
  if (claim) w->used_ = true;
  return w->name_;
}

std::vector<Tensor> apply_op(const std::string& op, const std::vector<Value>& inputs,
                             AttrMap attrs, const std::string& name) {
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
  // "[Op:X]" when a host list for a single input sends TF's wrapper down eager_fallback.
  bool fallback = false;
  for (size_t i = 0; i < def.inputs.size(); ++i) {
    const ArgDef& a = def.inputs[i];
    if (a.number_attr.empty() && a.type_list_attr.empty() && is_sequence(inputs[i])) fallback = true;
  }
  EagerErrorName error_name(fallback ? std::string() : " name: " + name);
  detail::OpScope scope(name.empty() ? op : name);
  std::vector<Tensor> flat;
  auto convert = [&](const ArgDef& a, const Value& v, const std::string& param) {
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
