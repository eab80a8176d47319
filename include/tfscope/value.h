// Value: a host value as Python sees it (None, bool, int, float, str, list, tuple, dict,
// namedtuple, an object by identity, a Tensor, a Variable, a TensorSpec). Tracing keys on these,
// so equality and hashing follow Python: 2 == 2.0, True == 1, and hashes agree where values do.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tfscope/tensor.h"
#include "tfscope/variable_state.h"

namespace tfs {

// An opaque host object keyed by identity (TF's Weakref trace type). The Python binding
// subclasses it to hold a weak reference; C++ callers can use it as a token.
class Object {
 public:
  virtual ~Object() = default;
  // False once the referent is gone: a dead object never matches anything.
  virtual bool alive() const { return true; }
  // Python `is` first, then `==`. The default is identity only.
  virtual bool equals(const Object& other) const { return this == &other; }
  virtual size_t hash() const { return std::hash<const void*>()(this); }
  virtual std::string repr() const;
  // A hashable value that is not weakly referenceable (keyed by value, a Literal in TF).
  virtual bool is_literal() const { return false; }
};

class Value;
using ValueList = std::vector<Value>;
using ValueItems = std::vector<std::pair<Value, Value>>;  // dict items in insertion order

struct NamedTupleValue {
  std::string type_name;
  std::vector<std::string> fields;
  ValueList values;
};

class Value {
 public:
  enum class Kind {
    kNone, kBool, kInt, kFloat, kStr, kList, kTuple, kDict, kNamedTuple, kObject, kTensor,
    kVariable, kTensorSpec,
  };

  Value() = default;  // None
  Value(std::nullptr_t) {}  // NOLINT
  Value(bool b) : v_(b) {}  // NOLINT
  Value(int i) : v_(static_cast<int64_t>(i)) {}  // NOLINT
  Value(int64_t i) : v_(i) {}  // NOLINT
  Value(double d) : v_(d) {}  // NOLINT
  Value(const char* s) : v_(std::string(s)) {}  // NOLINT
  Value(std::string s) : v_(std::move(s)) {}  // NOLINT
  Value(Tensor t) : v_(std::move(t)) {}  // NOLINT
  Value(TensorSpec s) : v_(std::move(s)) {}  // NOLINT
  Value(std::shared_ptr<VariableState> v) : v_(std::move(v)) {}  // NOLINT
  Value(std::shared_ptr<Object> o) : v_(std::move(o)) {}  // NOLINT

  static Value list(ValueList items);
  static Value tuple(ValueList items);
  static Value dict(ValueItems items);
  static Value named_tuple(std::string type_name, std::vector<std::string> fields, ValueList values);

  Kind kind() const;
  bool is_none() const { return kind() == Kind::kNone; }
  bool is_tensor() const { return kind() == Kind::kTensor; }
  bool is_number() const;  // bool, int or float

  bool as_bool() const { return std::get<bool>(v_); }
  int64_t as_int() const;       // bool or int
  double as_double() const;     // bool, int or float
  const std::string& as_str() const { return std::get<std::string>(v_); }
  const Tensor& as_tensor() const { return std::get<Tensor>(v_); }
  const TensorSpec& as_spec() const { return std::get<TensorSpec>(v_); }
  const std::shared_ptr<VariableState>& as_variable() const {
    return std::get<std::shared_ptr<VariableState>>(v_);
  }
  const std::shared_ptr<Object>& as_object() const { return std::get<std::shared_ptr<Object>>(v_); }
  const ValueList& items() const;  // list / tuple / namedtuple values
  const ValueItems& dict_items() const;
  const NamedTupleValue& named_tuple() const;
  const Value* dict_get(const Value& key) const;

  // Python `==` for hashable host values (numbers across bool/int/float, NaN never equal).
  friend bool operator==(const Value& a, const Value& b);
  // Python's hash(): equal numbers hash alike.
  size_t hash() const;
  // Python repr(): 2, 2.0, True, 'a', [1, 2], (1,), {'a': 1}, None.
  std::string repr() const;
  // Python str(): like repr but strings unquoted, tensors as str(tensor).
  std::string str() const;

 private:
  struct Seq {
    Kind kind;
    ValueList items;
  };
  std::variant<std::monostate, bool, int64_t, double, std::string, std::shared_ptr<Seq>,
               std::shared_ptr<ValueItems>, std::shared_ptr<NamedTupleValue>,
               std::shared_ptr<Object>, Tensor, std::shared_ptr<VariableState>, TensorSpec>
      v_;
};

// Python's repr() of a float: shortest round-trip digits, "2.0", "1e+16", "nan", "inf".
std::string python_float_repr(double d);

}  // namespace tfs
