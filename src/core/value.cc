#include "tfscope/value.h"

#include <cmath>
#include <cstdio>
#include <functional>

#include "tfscope/format.h"

namespace tfs {

std::string Object::repr() const {
  char buf[64];
  std::snprintf(buf, sizeof buf, "<object at %p>", static_cast<const void*>(this));
  return buf;
}

Value Value::list(ValueList items) {
  Value v;
  v.v_ = std::make_shared<Seq>(Seq{Kind::kList, std::move(items)});
  return v;
}

Value Value::tuple(ValueList items) {
  Value v;
  v.v_ = std::make_shared<Seq>(Seq{Kind::kTuple, std::move(items)});
  return v;
}

Value Value::dict(ValueItems items) {
  Value v;
  v.v_ = std::make_shared<ValueItems>(std::move(items));
  return v;
}

Value Value::named_tuple(std::string type_name, std::vector<std::string> fields,
                         ValueList values) {
  Value v;
  v.v_ = std::make_shared<NamedTupleValue>(
      NamedTupleValue{std::move(type_name), std::move(fields), std::move(values)});
  return v;
}

Value::Kind Value::kind() const {
  switch (v_.index()) {
    case 0: return Kind::kNone;
    case 1: return Kind::kBool;
    case 2: return Kind::kInt;
    case 3: return Kind::kFloat;
    case 4: return Kind::kStr;
    case 5: return std::get<std::shared_ptr<Seq>>(v_)->kind;
    case 6: return Kind::kDict;
    case 7: return Kind::kNamedTuple;
    case 8: return Kind::kObject;
    case 9: return Kind::kTensor;
    case 10: return Kind::kVariable;
    default: return Kind::kTensorSpec;
  }
}

bool Value::is_number() const {
  Kind k = kind();
  return k == Kind::kBool || k == Kind::kInt || k == Kind::kFloat;
}

int64_t Value::as_int() const {
  if (auto* b = std::get_if<bool>(&v_)) return *b ? 1 : 0;
  return std::get<int64_t>(v_);
}

double Value::as_double() const {
  if (auto* b = std::get_if<bool>(&v_)) return *b ? 1.0 : 0.0;
  if (auto* i = std::get_if<int64_t>(&v_)) return static_cast<double>(*i);
  return std::get<double>(v_);
}

const ValueList& Value::items() const {
  if (auto* s = std::get_if<std::shared_ptr<Seq>>(&v_)) return (*s)->items;
  return std::get<std::shared_ptr<NamedTupleValue>>(v_)->values;
}

const ValueItems& Value::dict_items() const { return *std::get<std::shared_ptr<ValueItems>>(v_); }

const NamedTupleValue& Value::named_tuple() const {
  return *std::get<std::shared_ptr<NamedTupleValue>>(v_);
}

const Value* Value::dict_get(const Value& key) const {
  for (auto& [k, v] : dict_items())
    if (k == key) return &v;
  return nullptr;
}

bool operator==(const Value& a, const Value& b) {
  using K = Value::Kind;
  K ka = a.kind(), kb = b.kind();
  if (a.is_number() && b.is_number()) {
    if (ka != K::kFloat && kb != K::kFloat) return a.as_int() == b.as_int();
    return a.as_double() == b.as_double();
  }
  if (ka != kb) return false;
  switch (ka) {
    case K::kNone: return true;
    case K::kStr: return a.as_str() == b.as_str();
    case K::kList:
    case K::kTuple: {
      const auto &x = a.items(), &y = b.items();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i)
        if (!(x[i] == y[i])) return false;
      return true;
    }
    case K::kNamedTuple: {
      const auto &x = a.named_tuple(), &y = b.named_tuple();
      if (x.values.size() != y.values.size()) return false;
      for (size_t i = 0; i < x.values.size(); ++i)
        if (!(x.values[i] == y.values[i])) return false;
      return true;
    }
    case K::kDict: {
      const auto &x = a.dict_items(), &y = b.dict_items();
      if (x.size() != y.size()) return false;
      for (auto& [k, v] : x) {
        const Value* o = b.dict_get(k);
        if (!o || !(*o == v)) return false;
      }
      return true;
    }
    case K::kObject: {
      const auto &x = a.as_object(), &y = b.as_object();
      return x.get() == y.get() || x->equals(*y);
    }
    case K::kTensor: return a.as_tensor().id() == b.as_tensor().id();
    case K::kVariable: return a.as_variable().get() == b.as_variable().get();
    case K::kTensorSpec: return a.as_spec() == b.as_spec();
    default: return false;
  }
}

namespace {

// Python's numeric hash, modulo 2^61 - 1, so that equal ints and floats hash alike.
constexpr uint64_t kModulus = (uint64_t{1} << 61) - 1;

size_t hash_int(int64_t i) {
  uint64_t m = static_cast<uint64_t>(i < 0 ? -(i + 1) : i) % kModulus;
  if (i < 0) m = kModulus - 1 - m;  // approximates -(|i| mod p) without overflow
  return static_cast<size_t>(m);
}

size_t hash_combine(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

}  // namespace

size_t Value::hash() const {
  using K = Kind;
  switch (kind()) {
    case K::kNone: return 0x5a5a;
    case K::kBool:
    case K::kInt: return hash_int(as_int());
    case K::kFloat: {
      double d = std::get<double>(v_);
      if (std::isnan(d)) return 0;
      if (d == std::floor(d) && std::fabs(d) < 9.2e18) return hash_int(static_cast<int64_t>(d));
      return std::hash<double>()(d);
    }
    case K::kStr: return std::hash<std::string>()(as_str());
    case K::kList:
    case K::kTuple: {
      size_t h = kind() == K::kList ? 17 : 31;
      for (auto& x : items()) h = hash_combine(h, x.hash());
      return h;
    }
    case K::kNamedTuple: {
      size_t h = std::hash<std::string>()(named_tuple().type_name);
      for (auto& x : items()) h = hash_combine(h, x.hash());
      return h;
    }
    case K::kDict: {
      size_t h = 0;  // order-insensitive
      for (auto& [k, v] : dict_items()) h += hash_combine(k.hash(), v.hash());
      return h;
    }
    case K::kObject: return as_object()->hash();
    case K::kTensor: return std::hash<const void*>()(as_tensor().id());
    case K::kVariable: return std::hash<const void*>()(as_variable().get());
    case K::kTensorSpec: return std::hash<std::string>()(as_spec().repr());
  }
  return 0;
}

static std::string py_str_repr(const std::string& s) {
  bool has_sq = s.find('\'') != std::string::npos, has_dq = s.find('"') != std::string::npos;
  char q = (has_sq && !has_dq) ? '"' : '\'';
  std::string r(1, q);
  for (char c : s) {
    if (c == '\\') r += "\\\\";
    else if (c == q) { r += '\\'; r += c; }
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else r += c;
  }
  return r + q;
}

std::string Value::repr() const {
  using K = Kind;
  switch (kind()) {
    case K::kNone: return "None";
    case K::kBool: return as_bool() ? "True" : "False";
    case K::kInt: return std::to_string(as_int());
    case K::kFloat: return python_float_repr(std::get<double>(v_));
    case K::kStr: return py_str_repr(as_str());
    case K::kList:
    case K::kTuple: {
      bool list = kind() == K::kList;
      std::string s = list ? "[" : "(";
      const auto& it = items();
      for (size_t i = 0; i < it.size(); ++i) s += (i ? ", " : "") + it[i].repr();
      if (!list && it.size() == 1) s += ",";
      return s + (list ? "]" : ")");
    }
    case K::kNamedTuple: {
      const auto& nt = named_tuple();
      std::string s = nt.type_name + "(";
      for (size_t i = 0; i < nt.values.size(); ++i)
        s += (i ? ", " : "") + nt.fields[i] + "=" + nt.values[i].repr();
      return s + ")";
    }
    case K::kDict: {
      std::string s = "{";
      bool first = true;
      for (auto& [k, v] : dict_items()) {
        s += (first ? "" : ", ") + k.repr() + ": " + v.repr();
        first = false;
      }
      return s + "}";
    }
    case K::kObject: return as_object()->repr();
    case K::kTensor: return as_tensor().repr();
    case K::kVariable: {
      auto& v = *as_variable();
      return "<tf.Variable '" + v.name() + "' shape=" + v.shape().str() +
             " dtype=" + std::string(dtype_name(v.dtype())) + ">";
    }
    case K::kTensorSpec: return as_spec().repr();
  }
  return "?";
}

std::string Value::str() const {
  switch (kind()) {
    case Kind::kStr: return as_str();
    case Kind::kTensor: return as_tensor().str();
    default: return repr();
  }
}

}  // namespace tfs
