// TraceType: the type tf.function keys its cache on, one per argument, mirroring TF 2.21's
// trace_type_builder: Tensor -> TensorSpec, host scalars/str/None -> Literal (Python equality,
// NaN matches NaN), list/tuple/dict/namedtuple -> structural types, Variables -> VariableSpec with
// per-call alias ids, other objects -> Weakref (identity, then ==).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/value.h"

namespace tfs {

// What a CustomTraceType's placeholder_value is given: the graph inputs of the trace being built,
// made in the flat order the type's to_tensors gives its tensors.
class PlaceholderContext {
 public:
  virtual ~PlaceholderContext() = default;
  virtual Tensor placeholder(DType dtype, const PartialShape& shape) = 0;
};

// A TraceType defined outside this file: TF's open protocol (tf.types.experimental.TraceType,
// a Python class, through python/src/convert.cc) or a C++ kind (a DatasetSpec, IndexedSlices,
// TensorArraySpec). One subclass is a whole new kind: the cache asks it for equality, hashing,
// subtyping and supertypes, the tracer for the value the body traces with, a call for the
// tensors it feeds, an input_signature for the cast. A Value traces as one when it holds a
// TracedObject whose trace_type() returns it.
class CustomTraceType {
 public:
  virtual ~CustomTraceType() = default;
  virtual bool equals(const CustomTraceType& other) const = 0;
  virtual size_t hash() const = 0;
  virtual bool is_subtype_of(const CustomTraceType& other) const = 0;
  // Null when there is none.
  virtual std::shared_ptr<const CustomTraceType> most_specific_common_supertype(
      const CustomTraceType& other) const = 0;
  virtual std::string repr() const = 0;
  // The value the body is traced with; its tensors come from ctx.placeholder, in to_tensors order.
  virtual Value placeholder_value(PlaceholderContext& ctx) const = 0;
  // The tensors a call feeds for `v`, a value of this type (TF's default: none).
  virtual std::vector<Tensor> to_tensors(const Value& v) const;
  // `v` cast to this type for an input_signature or a concrete function's call; throws
  // TypeError (TF's default: `v` itself, when it traces as this type).
  virtual Value cast(const Value& v) const;
  // The specs of the tensors to_tensors gives (TF's flatten()).
  virtual std::vector<TensorSpec> flatten() const { return {}; }
  // What structured_input_signature shows for an argument of this type, given the value the
  // body was traced with: TF asks placeholder_value again under an unnest_only context, where a
  // TypeSpec (DatasetSpec, IteratorSpec) answers itself; by default the traced value.
  virtual Value signature_value(const Value& placeholder) const { return placeholder; }
};

// An object that traces as a type of its own (a Python object with __tf_tracing_type__); null
// when it has none (it is then keyed by identity).
class TracedObject : public Object {
 public:
  virtual std::shared_ptr<const CustomTraceType> trace_type() const = 0;
};

class TraceType {
 public:
  enum class Kind {
    kLiteral,
    kTensorSpec,
    kList,
    kTuple,
    kDict,
    kNamedTuple,
    kWeakref,
    kVariableSpec,
    kCustom
  };

  static TraceType literal(Value v);
  static TraceType tensor_spec(TensorSpec s);
  static TraceType list(std::vector<TraceType> c);
  static TraceType tuple(std::vector<TraceType> c);
  static TraceType dict(std::vector<Value> keys, std::vector<TraceType> values);
  static TraceType named_tuple(std::string name, std::vector<std::string> fields,
                               std::vector<TraceType> c);
  static TraceType weakref(std::shared_ptr<Object> o);
  static TraceType variable_spec(PartialShape shape, DType dtype, bool trainable, int alias_id);
  static TraceType custom(std::shared_ptr<const CustomTraceType> c);

  Kind kind() const { return kind_; }
  const Value& literal_value() const { return literal_; }
  bool is_nan_literal() const { return nan_; }
  const TensorSpec& spec() const { return spec_; }
  const std::vector<TraceType>& children() const { return children_; }
  const std::vector<Value>& keys() const { return keys_; }  // dict keys, insertion order
  const std::string& type_name() const { return name_; }
  const std::vector<std::string>& fields() const { return fields_; }
  const std::shared_ptr<Object>& object() const { return object_; }
  int alias_id() const { return alias_id_; }
  bool trainable() const { return trainable_; }
  const CustomTraceType& custom() const { return *custom_; }

  bool operator==(const TraceType& o) const;
  size_t hash() const;
  // The hash of the type without its tensor and variable shapes (and TensorSpec names): equal
  // for any two types one of which could be a subtype of the other, or that could have a common
  // supertype.
  size_t skeleton_hash() const;
  // Contravariant dispatch uses: can a function traced for `other` serve a request of `this`?
  bool is_subtype_of(const TraceType& other) const;
  std::optional<TraceType> most_specific_common_supertype(const TraceType& other) const;
  // TF's reprs: Literal[2], TensorSpec(...), List[...], Tuple[...], Dict[['a', ...]], ...
  std::string repr() const;
  // Short text for the ledger: "Literal[2]", "int32 (2,)".
  std::string summary() const;

 private:
  Kind kind_ = Kind::kLiteral;
  Value literal_;
  bool nan_ = false;
  TensorSpec spec_;
  std::vector<TraceType> children_;
  std::vector<Value> keys_;
  std::string name_;
  std::vector<std::string> fields_;
  std::shared_ptr<Object> object_;
  int alias_id_ = 0;
  bool trainable_ = true;
  std::shared_ptr<const CustomTraceType> custom_;
};

// A VariableSpec as a host value (in structured_input_signature).
class VariableSpecValue : public Object {
 public:
  VariableSpecValue(PartialShape shape, DType dtype, bool trainable, int alias_id)
      : shape(std::move(shape)), dtype(dtype), trainable(trainable), alias_id(alias_id) {}
  std::string repr() const override;
  PartialShape shape;
  DType dtype;
  bool trainable;
  int alias_id;
};

// Builds TraceTypes for one call: tracks variable aliasing across the call's arguments.
class TraceTypeBuilder {
 public:
  TraceType from_value(const Value& v);
  // The cache-hit path's shortcuts, exact equivalents of building the type: hash_of(v) is
  // from_value(v).hash() and matches(t, v) is t == from_value(v), with the variables a call's
  // values hold numbered the same way, but nothing is allocated.
  size_t hash_of(const Value& v);
  bool matches(const TraceType& t, const Value& v);

 private:
  int alias_of(const void* variable);
  void note_variables(const Value& v);  // numbers the variables of v as from_value would
  std::vector<const void*> variables_;  // distinct handles seen, in order
};

}  // namespace tfs
