#include "tfscope/trace_type.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace tfs {

TraceType TraceType::literal(Value v) {
  TraceType t;
  t.kind_ = Kind::kLiteral;
  if (v.kind() == Value::Kind::kFloat && std::isnan(v.as_double())) t.nan_ = true;
  t.literal_ = std::move(v);
  return t;
}

TraceType TraceType::tensor_spec(TensorSpec s) {
  TraceType t;
  t.kind_ = Kind::kTensorSpec;
  t.spec_ = std::move(s);
  return t;
}

TraceType TraceType::list(std::vector<TraceType> c) {
  TraceType t;
  t.kind_ = Kind::kList;
  t.children_ = std::move(c);
  return t;
}

TraceType TraceType::tuple(std::vector<TraceType> c) {
  TraceType t;
  t.kind_ = Kind::kTuple;
  t.children_ = std::move(c);
  return t;
}

TraceType TraceType::dict(std::vector<Value> keys, std::vector<TraceType> values) {
  TraceType t;
  t.kind_ = Kind::kDict;
  t.keys_ = std::move(keys);
  t.children_ = std::move(values);
  return t;
}

TraceType TraceType::named_tuple(std::string name, std::vector<std::string> fields,
                                 std::vector<TraceType> c) {
  TraceType t;
  t.kind_ = Kind::kNamedTuple;
  t.name_ = std::move(name);
  t.fields_ = std::move(fields);
  t.children_ = std::move(c);
  return t;
}

TraceType TraceType::weakref(std::shared_ptr<Object> o) {
  TraceType t;
  t.kind_ = Kind::kWeakref;
  t.object_ = std::move(o);
  return t;
}

TraceType TraceType::variable_spec(PartialShape shape, DType dtype, bool trainable, int alias_id) {
  TraceType t;
  t.kind_ = Kind::kVariableSpec;
  t.spec_ = TensorSpec(std::move(shape), dtype);
  t.trainable_ = trainable;
  t.alias_id_ = alias_id;
  return t;
}

TraceType TraceType::custom(std::shared_ptr<const CustomTraceType> c) {
  TraceType t;
  t.kind_ = Kind::kCustom;
  t.custom_ = std::move(c);
  return t;
}

namespace {

// The hash a literal keys the cache with: literals that are equal (Python's ==, so True, 1 and
// 1.0 are one literal) hash alike. Numbers hash by value without Python's modulus; other
// literals by Value::hash. NaN literals, which all match each other, are hashed by the callers.
size_t literal_hash(const Value& v, Value::Kind k) {
  switch (k) {
    case Value::Kind::kBool:
      return v.as_bool() ? 1 : 0;
    case Value::Kind::kInt:
      return static_cast<size_t>(v.as_int());
    case Value::Kind::kFloat: {
      const double d = v.as_double();
      if (d == std::floor(d) && std::fabs(d) < 9.2e18)
        return static_cast<size_t>(static_cast<int64_t>(d));
      return std::hash<double>()(d);
    }
    default:
      return v.hash();
  }
}

std::shared_ptr<const CustomTraceType> own_type(const Value& v) {
  if (v.kind() != Value::Kind::kObject) return nullptr;
  auto* t = dynamic_cast<const TracedObject*>(v.as_object().get());
  return t ? t->trace_type() : nullptr;
}

}  // namespace

std::vector<Tensor> CustomTraceType::to_tensors(const Value&) const {
  return {};
}

Value CustomTraceType::cast(const Value& v) const {
  auto own = own_type(v);
  if (!own || !own->equals(*this)) type_error("Can not cast " + v.repr() + " to type " + repr());
  return v;
}

namespace {

// Dict values matched by key regardless of insertion order.
const TraceType* dict_lookup(const TraceType& d, const Value& key) {
  for (size_t i = 0; i < d.keys().size(); ++i)
    if (d.keys()[i] == key) return &d.children()[i];
  return nullptr;
}

bool same_keys(const TraceType& a, const TraceType& b) {
  if (a.keys().size() != b.keys().size()) return false;
  for (auto& k : a.keys())
    if (!dict_lookup(b, k)) return false;
  return true;
}

}  // namespace

bool TraceType::operator==(const TraceType& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case Kind::kLiteral:
      if (nan_ || o.nan_) return nan_ && o.nan_;
      return literal_ == o.literal_;
    case Kind::kTensorSpec:
      return spec_ == o.spec_;
    case Kind::kVariableSpec:
      return spec_ == o.spec_ && trainable_ == o.trainable_ && alias_id_ == o.alias_id_;
    case Kind::kWeakref: {
      if (!object_->alive() || !o.object_->alive()) return false;
      return object_.get() == o.object_.get() || object_->equals(*o.object_);
    }
    case Kind::kDict: {
      if (!same_keys(*this, o)) return false;
      for (size_t i = 0; i < keys_.size(); ++i)
        if (!(children_[i] == *dict_lookup(o, keys_[i]))) return false;
      return true;
    }
    case Kind::kNamedTuple:
      if (name_ != o.name_ || fields_ != o.fields_) return false;
      [[fallthrough]];
    case Kind::kList:
    case Kind::kTuple:
      return children_ == o.children_;
    case Kind::kCustom:
      return custom_ == o.custom_ || custom_->equals(*o.custom_);
  }
  return false;
}

size_t TraceType::hash() const {
  size_t h = static_cast<size_t>(kind_) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  switch (kind_) {
    case Kind::kLiteral:
      mix(nan_ ? 0x7ff8 : literal_hash(literal_, literal_.kind()));
      break;
    case Kind::kTensorSpec:
    case Kind::kVariableSpec:
      mix(static_cast<size_t>(spec_.dtype));
      mix(static_cast<size_t>(spec_.shape.rank() + 1));
      if (spec_.shape.has_rank())
        for (int i = 0; i < spec_.shape.rank(); ++i)
          mix(static_cast<size_t>(spec_.shape.dim(i) + 2));
      mix(static_cast<size_t>(alias_id_));
      break;
    case Kind::kWeakref:
      mix(object_->hash());
      break;
    case Kind::kCustom:
      mix(custom_->hash());
      break;
    case Kind::kDict: {
      size_t s = 0;
      for (auto& k : keys_) s += k.hash();
      mix(s);
      break;
    }
    default:
      mix(std::hash<std::string>()(name_));
      for (auto& c : children_) mix(c.hash());
  }
  return h;
}

size_t TraceType::skeleton_hash() const {
  size_t h = static_cast<size_t>(kind_) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  switch (kind_) {
    case Kind::kLiteral:
      mix(nan_ ? 0x7ff8 : literal_hash(literal_, literal_.kind()));
      break;
    case Kind::kTensorSpec:
      mix(static_cast<size_t>(spec_.dtype));
      break;
    case Kind::kVariableSpec:
      mix(static_cast<size_t>(spec_.dtype));
      mix(static_cast<size_t>(alias_id_) * 2 + (trainable_ ? 1 : 0));
      break;
    case Kind::kWeakref:
      mix(object_->hash());
      break;
    case Kind::kCustom:
      break;  // a custom type may be a subtype of one with another hash: all share a skeleton
    case Kind::kDict: {
      // Order-insensitive, as dict types compare by key.
      size_t s = 0;
      for (size_t i = 0; i < keys_.size(); ++i)
        s += keys_[i].hash() * 31 + children_[i].skeleton_hash();
      mix(s);
      break;
    }
    default:
      mix(std::hash<std::string>()(name_));
      mix(children_.size());
      for (auto& c : children_) mix(c.skeleton_hash());
  }
  return h;
}

bool TraceType::is_subtype_of(const TraceType& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case Kind::kTensorSpec:
      return spec_.is_subtype_of(o.spec_);
    case Kind::kVariableSpec:
      return spec_.dtype == o.spec_.dtype && trainable_ == o.trainable_ &&
             alias_id_ == o.alias_id_ && spec_.shape.is_subtype_of(o.spec_.shape);
    case Kind::kLiteral:
    case Kind::kWeakref:
      return *this == o;
    case Kind::kDict: {
      if (!same_keys(*this, o)) return false;
      for (size_t i = 0; i < keys_.size(); ++i)
        if (!children_[i].is_subtype_of(*dict_lookup(o, keys_[i]))) return false;
      return true;
    }
    case Kind::kNamedTuple:
      if (name_ != o.name_ || fields_ != o.fields_) return false;
      [[fallthrough]];
    case Kind::kList:
    case Kind::kTuple:
      if (children_.size() != o.children_.size()) return false;
      for (size_t i = 0; i < children_.size(); ++i)
        if (!children_[i].is_subtype_of(o.children_[i])) return false;
      return true;
    case Kind::kCustom:
      return custom_->is_subtype_of(*o.custom_);
  }
  return false;
}

std::optional<TraceType> TraceType::most_specific_common_supertype(const TraceType& o) const {
  if (kind_ != o.kind_) return std::nullopt;
  switch (kind_) {
    case Kind::kTensorSpec: {
      if (spec_.dtype != o.spec_.dtype || spec_.has_name != o.spec_.has_name ||
          spec_.name != o.spec_.name)
        return std::nullopt;
      TensorSpec s = spec_;
      s.shape = spec_.shape.most_specific_common_supertype(o.spec_.shape);
      return tensor_spec(s);
    }
    case Kind::kVariableSpec: {
      if (spec_.dtype != o.spec_.dtype || trainable_ != o.trainable_ || alias_id_ != o.alias_id_)
        return std::nullopt;
      return variable_spec(spec_.shape.most_specific_common_supertype(o.spec_.shape), spec_.dtype,
                           trainable_, alias_id_);
    }
    case Kind::kLiteral:
    case Kind::kWeakref:
      if (*this == o) return *this;
      return std::nullopt;
    case Kind::kDict: {
      if (!same_keys(*this, o)) return std::nullopt;
      std::vector<TraceType> vals;
      for (size_t i = 0; i < keys_.size(); ++i) {
        auto s = children_[i].most_specific_common_supertype(*dict_lookup(o, keys_[i]));
        if (!s) return std::nullopt;
        vals.push_back(*s);
      }
      return dict(keys_, vals);
    }
    case Kind::kNamedTuple:
      if (name_ != o.name_ || fields_ != o.fields_) return std::nullopt;
      [[fallthrough]];
    case Kind::kList:
    case Kind::kTuple: {
      if (children_.size() != o.children_.size()) return std::nullopt;
      std::vector<TraceType> c;
      for (size_t i = 0; i < children_.size(); ++i) {
        auto s = children_[i].most_specific_common_supertype(o.children_[i]);
        if (!s) return std::nullopt;
        c.push_back(*s);
      }
      TraceType t = *this;
      t.children_ = std::move(c);
      return t;
    }
    case Kind::kCustom: {
      auto s = custom_->most_specific_common_supertype(*o.custom_);
      if (!s) return std::nullopt;
      return custom(std::move(s));
    }
  }
  return std::nullopt;
}

std::string TraceType::repr() const {
  auto join = [](const std::vector<TraceType>& c) {
    std::string s;
    for (size_t i = 0; i < c.size(); ++i) s += (i ? ", " : "") + c[i].repr();
    return s;
  };
  switch (kind_) {
    case Kind::kLiteral:
      return "Literal[" +
             (nan_ ? std::string("<object object at 0x7f0000000000>") : literal_.repr()) + "]";
    case Kind::kTensorSpec:
      return spec_.repr();
    case Kind::kVariableSpec:
      return "VariableSpec(shape=" + spec_.shape.str() + ", dtype=" + dtype_repr(spec_.dtype) +
             ", trainable=" + (trainable_ ? "True" : "False") +
             ", alias_id=" + std::to_string(alias_id_) + ")";
    case Kind::kList:
      return "List[" + join(children_) + "]";
    case Kind::kTuple:
      return "Tuple[" + join(children_) + "]";
    case Kind::kDict: {
      std::string s = "Dict[";
      for (size_t i = 0; i < keys_.size(); ++i)
        s +=
            (i ? ", " : "") + std::string("[") + keys_[i].repr() + ", " + children_[i].repr() + "]";
      return s + "]";
    }
    case Kind::kNamedTuple: {
      std::string s = name_ + "[";
      for (size_t i = 0; i < fields_.size(); ++i)
        s += (i ? ", " : "") + std::string("['") + fields_[i] + "', " + children_[i].repr() + "]";
      return s + "]";
    }
    case Kind::kWeakref:
      return "Weakref[" + object_->repr() + "]";
    case Kind::kCustom:
      return custom_->repr();
  }
  return "?";
}

std::string TraceType::summary() const {
  switch (kind_) {
    case Kind::kTensorSpec:
      return std::string(dtype_name(spec_.dtype)) + " " + spec_.shape.str();
    case Kind::kVariableSpec:
      return "variable " + std::string(dtype_name(spec_.dtype)) + " " + spec_.shape.str() +
             " alias " + std::to_string(alias_id_);
    default:
      return repr();
  }
}

TraceType TraceTypeBuilder::from_value(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kTensor:
      return TraceType::tensor_spec(TensorSpec::from_tensor(v.as_tensor()));
    case Value::Kind::kTensorSpec:
      return TraceType::tensor_spec(v.as_spec());
    case Value::Kind::kVariable: {
      const auto& var = v.as_variable();
      const void* key = var.get();
      auto it = std::find(variables_.begin(), variables_.end(), key);
      int alias = static_cast<int>(it - variables_.begin());
      if (it == variables_.end()) variables_.push_back(key);
      return TraceType::variable_spec(var->shape(), var->dtype(), var->trainable(), alias);
    }
    case Value::Kind::kList:
    case Value::Kind::kTuple: {
      std::vector<TraceType> c;
      for (auto& x : v.items()) c.push_back(from_value(x));
      return v.kind() == Value::Kind::kList ? TraceType::list(std::move(c))
                                            : TraceType::tuple(std::move(c));
    }
    case Value::Kind::kNamedTuple: {
      std::vector<TraceType> c;
      for (auto& x : v.items()) c.push_back(from_value(x));
      return TraceType::named_tuple(v.named_tuple().type_name, v.named_tuple().fields,
                                    std::move(c));
    }
    case Value::Kind::kDict: {
      std::vector<Value> keys;
      std::vector<TraceType> vals;
      for (auto& [k, x] : v.dict_items()) {
        keys.push_back(k);
        vals.push_back(from_value(x));
      }
      return TraceType::dict(std::move(keys), std::move(vals));
    }
    case Value::Kind::kObject:
      if (auto c = own_type(v)) return TraceType::custom(std::move(c));
      if (v.as_object()->is_literal()) return TraceType::literal(v);
      return TraceType::weakref(v.as_object());
    default:
      return TraceType::literal(v);
  }
}

int TraceTypeBuilder::alias_of(const void* variable) {
  auto it = std::find(variables_.begin(), variables_.end(), variable);
  int alias = static_cast<int>(it - variables_.begin());
  if (it == variables_.end()) variables_.push_back(variable);
  return alias;
}

void TraceTypeBuilder::note_variables(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kVariable:
      alias_of(v.as_variable().get());
      return;
    case Value::Kind::kList:
    case Value::Kind::kTuple:
    case Value::Kind::kNamedTuple:
      for (auto& x : v.items()) note_variables(x);
      return;
    case Value::Kind::kDict:
      for (auto& [k, x] : v.dict_items()) note_variables(x);
      return;
    default:
      return;
  }
}

namespace {

bool holds_variable(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kVariable:
      return true;
    case Value::Kind::kList:
    case Value::Kind::kTuple:
    case Value::Kind::kNamedTuple:
      for (auto& x : v.items())
        if (holds_variable(x)) return true;
      return false;
    case Value::Kind::kDict:
      for (auto& [k, x] : v.dict_items())
        if (holds_variable(x)) return true;
      return false;
    default:
      return false;
  }
}

// TraceType::hash's mixing, shared with hash_of.
struct Mixer {
  size_t h;
  explicit Mixer(TraceType::Kind k) : h(static_cast<size_t>(k) * 0x9e3779b97f4a7c15ULL) {}
  void mix(size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }
  void mix_shape(DType dtype, const PartialShape& shape, int alias) {
    mix(static_cast<size_t>(dtype));
    mix(static_cast<size_t>(shape.rank() + 1));
    if (shape.has_rank())
      for (int i = 0; i < shape.rank(); ++i) mix(static_cast<size_t>(shape.dim(i) + 2));
    mix(static_cast<size_t>(alias));
  }
};

// The hit path reads a value's kind once (Value::kind is not inline) and compares a literal
// without Python's general ==, which asks for the kinds again.
bool is_nan(const Value& v, Value::Kind k) {
  return k == Value::Kind::kFloat && std::isnan(v.as_double());
}

// t.literal_value() == v (Python's ==) for a literal type, NaN matching NaN.
bool literal_matches(const TraceType& t, const Value& v, Value::Kind k) {
  const bool nan = is_nan(v, k);
  if (t.is_nan_literal() || nan) return t.is_nan_literal() && nan;
  const Value& lit = t.literal_value();
  if (lit.kind() == k) {
    switch (k) {
      case Value::Kind::kNone:
        return true;
      case Value::Kind::kBool:
        return lit.as_bool() == v.as_bool();
      case Value::Kind::kInt:
        return lit.as_int() == v.as_int();
      case Value::Kind::kFloat:
        return lit.as_double() == v.as_double();
      case Value::Kind::kStr:
        return lit.as_str() == v.as_str();
      default:
        break;
    }
  }
  return lit == v;  // across bool/int/float, containers, objects
}

TraceType::Kind sequence_kind(Value::Kind k) {
  return k == Value::Kind::kList    ? TraceType::Kind::kList
         : k == Value::Kind::kTuple ? TraceType::Kind::kTuple
                                    : TraceType::Kind::kNamedTuple;
}

}  // namespace

namespace {

// The cold cases of TraceTypeBuilder::hash_of and matches (nests, objects, specs), apart from the
// tensors, variables and literals of most calls, which stay in a small function.
size_t hash_of_other(TraceTypeBuilder& tb, const Value& v, Value::Kind vk) {  // not a dict
  using K = TraceType::Kind;
  switch (vk) {
    case Value::Kind::kTensorSpec: {
      Mixer m(K::kTensorSpec);
      m.mix_shape(v.as_spec().dtype, v.as_spec().shape, 0);
      return m.h;
    }
    case Value::Kind::kList:
    case Value::Kind::kTuple:
    case Value::Kind::kNamedTuple: {
      static const size_t kNoName = std::hash<std::string>()(std::string());
      Mixer m(sequence_kind(vk));
      m.mix(vk == Value::Kind::kNamedTuple ? std::hash<std::string>()(v.named_tuple().type_name)
                                           : kNoName);
      for (auto& x : v.items()) m.mix(tb.hash_of(x));
      return m.h;
    }
    default: {  // kObject
      if (auto c = own_type(v)) {
        Mixer m(K::kCustom);
        m.mix(c->hash());
        return m.h;
      }
      Mixer m(v.as_object()->is_literal() ? K::kLiteral : K::kWeakref);
      m.mix(v.as_object()->hash());
      return m.h;
    }
  }
}

bool matches_other(TraceTypeBuilder& tb, const TraceType& t, const Value& v, Value::Kind vk) {
  using K = TraceType::Kind;
  switch (vk) {
    case Value::Kind::kTensorSpec:
      return t.kind() == K::kTensorSpec && t.spec() == v.as_spec();
    case Value::Kind::kList:
    case Value::Kind::kTuple:
    case Value::Kind::kNamedTuple: {
      const K want = sequence_kind(vk);
      if (t.kind() != want || t.children().size() != v.items().size()) return false;
      if (want == K::kNamedTuple &&
          (t.type_name() != v.named_tuple().type_name || t.fields() != v.named_tuple().fields))
        return false;
      for (size_t i = 0; i < v.items().size(); ++i)
        if (!tb.matches(t.children()[i], v.items()[i])) return false;
      return true;
    }
    case Value::Kind::kDict: {
      // Variables inside are numbered in the dict's own order, which t's keys need not follow:
      // such a dict is compared the long way.
      if (holds_variable(v)) return t == tb.from_value(v);
      if (t.kind() != K::kDict || t.keys().size() != v.dict_items().size()) return false;
      for (size_t i = 0; i < t.keys().size(); ++i) {
        const Value* x = v.dict_get(t.keys()[i]);
        if (!x || !tb.matches(t.children()[i], *x)) return false;
      }
      return true;
    }
    default: {  // kObject
      if (auto c = own_type(v)) {
        return t.kind() == K::kCustom && (&t.custom() == c.get() || t.custom().equals(*c));
      }
      const auto& o = v.as_object();
      if (o->is_literal()) return t.kind() == K::kLiteral && literal_matches(t, v, vk);
      if (t.kind() != K::kWeakref) return false;
      if (!t.object()->alive() || !o->alive()) return false;
      return t.object().get() == o.get() || t.object()->equals(*o);
    }
  }
}

// a == b for the small shapes of most arguments, element by element (vector's == calls memcmp).
bool same_shape(const PartialShape& a, const PartialShape& b) {
  if (a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (a.dim(i) != b.dim(i)) return false;
  return true;
}

bool is_scalar(Value::Kind k) {
  return k == Value::Kind::kNone || k == Value::Kind::kBool || k == Value::Kind::kInt ||
         k == Value::Kind::kFloat || k == Value::Kind::kStr;
}

}  // namespace

size_t TraceTypeBuilder::hash_of(const Value& v) {
  using K = TraceType::Kind;
  const Value::Kind vk = v.kind();
  if (vk == Value::Kind::kTensor) {
    Mixer m(K::kTensorSpec);
    m.mix_shape(v.as_tensor().dtype(), v.as_tensor().shape(), 0);
    return m.h;
  }
  if (is_scalar(vk)) {
    Mixer m(K::kLiteral);
    m.mix(is_nan(v, vk) ? 0x7ff8 : literal_hash(v, vk));
    return m.h;
  }
  if (vk == Value::Kind::kVariable) {
    const auto& var = v.as_variable();
    Mixer m(K::kVariableSpec);
    m.mix_shape(var->dtype(), var->shape(), alias_of(var.get()));
    return m.h;
  }
  if (vk == Value::Kind::kDict) {
    Mixer m(K::kDict);
    size_t sum = 0;
    for (auto& [k, x] : v.dict_items()) {
      sum += k.hash();
      note_variables(x);  // a dict's hash leaves out its values, not their variables' numbers
    }
    m.mix(sum);
    return m.h;
  }
  return hash_of_other(*this, v, vk);
}

bool TraceTypeBuilder::matches(const TraceType& t, const Value& v) {
  using K = TraceType::Kind;
  const Value::Kind vk = v.kind();
  if (vk == Value::Kind::kTensor) {
    const Tensor& x = v.as_tensor();
    const TensorSpec& s = t.spec();
    return t.kind() == K::kTensorSpec && !s.has_name && s.name.empty() && s.dtype == x.dtype() &&
           same_shape(s.shape, x.shape());
  }
  if (is_scalar(vk)) return t.kind() == K::kLiteral && literal_matches(t, v, vk);
  if (vk == Value::Kind::kVariable) {
    const auto& var = v.as_variable();
    const int alias = alias_of(var.get());
    const TensorSpec& s = t.spec();
    return t.kind() == K::kVariableSpec && !s.has_name && s.name.empty() &&
           s.dtype == var->dtype() && same_shape(s.shape, var->shape()) &&
           t.trainable() == var->trainable() && t.alias_id() == alias;
  }
  return matches_other(*this, t, v, vk);
}

std::string VariableSpecValue::repr() const {
  return "VariableSpec(shape=" + shape.str() + ", dtype=" + std::string(dtype_name(dtype)) +
         ", trainable=" + (trainable ? "True" : "False") +
         ", alias_id=" + std::to_string(alias_id) + ")";
}

}  // namespace tfs
