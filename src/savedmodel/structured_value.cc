// StructuredValue <-> Value, field by field as TF's nested_structure_coder encodes them.
#include "structured_value.h"

#include <algorithm>

#include "graph_convert.h"
#include "tfscope/saved_model_io.h"

namespace tfs::savedmodel::detail {

namespace {

ValueList decode_all(const google::protobuf::RepeatedPtrField<tensorflow::StructuredValue>& vs,
                     const std::string& where) {
  ValueList out;
  out.reserve(static_cast<size_t>(vs.size()));
  for (const auto& v : vs) out.push_back(structured_to_value(v, where));
  return out;
}

TensorSpec spec_of(const std::string& name, const tensorflow::TensorShapeProto& shape, int dtype,
                   const std::string& where) {
  PartialShape s = shape_from_proto(shape, where);
  DType dt = dtype_from_proto(dtype, where);
  return name.empty() ? TensorSpec(s, dt) : TensorSpec(s, dt, name);
}

}  // namespace

Value structured_to_value(const tensorflow::StructuredValue& s, const std::string& where) {
  using K = tensorflow::StructuredValue;
  switch (s.kind_case()) {
    case K::kNoneValue:
    case K::KIND_NOT_SET:
      return Value();
    case K::kFloat64Value:
      return Value(s.float64_value());
    case K::kInt64Value:
      return Value(static_cast<int64_t>(s.int64_value()));
    case K::kStringValue:
      return Value(s.string_value());
    case K::kBoolValue:
      return Value(s.bool_value());
    case K::kListValue:
      return Value::list(decode_all(s.list_value().values(), where));
    case K::kTupleValue:
      return Value::tuple(decode_all(s.tuple_value().values(), where));
    case K::kDictValue: {
      std::vector<std::string> keys;
      for (const auto& [k, v] : s.dict_value().fields()) keys.push_back(k);
      std::sort(keys.begin(), keys.end());
      ValueItems items;
      for (const auto& k : keys)
        items.emplace_back(Value(k), structured_to_value(s.dict_value().fields().at(k), where));
      return Value::dict(std::move(items));
    }
    case K::kNamedTupleValue: {
      std::vector<std::string> fields;
      ValueList values;
      for (const auto& p : s.named_tuple_value().values()) {
        fields.push_back(p.key());
        values.push_back(structured_to_value(p.value(), where));
      }
      return Value::named_tuple(s.named_tuple_value().name(), std::move(fields), std::move(values));
    }
    case K::kTensorSpecValue: {
      const auto& t = s.tensor_spec_value();
      return Value(spec_of(t.name(), t.shape(), t.dtype(), where));
    }
    case K::kBoundedTensorSpecValue: {
      const auto& t = s.bounded_tensor_spec_value();
      return Value(spec_of(t.name(), t.shape(), t.dtype(), where));
    }
    case K::kTypeSpecValue:
      throw FormatError("[savedmodel] " + where + ": unsupported structured value (TypeSpec '" +
                        s.type_spec_value().type_spec_class_name() + "')");
    default:
      throw FormatError("[savedmodel] " + where + ": unsupported structured value (field " +
                        std::to_string(static_cast<int>(s.kind_case())) + ")");
  }
}

void value_to_structured(const Value& v, tensorflow::StructuredValue* out) {
  using VK = Value::Kind;
  switch (v.kind()) {
    case VK::kNone:
      out->mutable_none_value();
      return;
    case VK::kBool:
      out->set_bool_value(v.as_bool());
      return;
    case VK::kInt:
      out->set_int64_value(v.as_int());
      return;
    case VK::kFloat:
      out->set_float64_value(v.as_double());
      return;
    case VK::kStr:
      out->set_string_value(v.as_str());
      return;
    case VK::kList: {
      auto* l = out->mutable_list_value();  // set even when empty
      for (const auto& x : v.items()) value_to_structured(x, l->add_values());
      return;
    }
    case VK::kTuple: {
      auto* t = out->mutable_tuple_value();
      for (const auto& x : v.items()) value_to_structured(x, t->add_values());
      return;
    }
    case VK::kDict: {
      auto* fields = out->mutable_dict_value()->mutable_fields();  // set even when empty
      for (const auto& [k, x] : v.dict_items()) {
        if (k.kind() != VK::kStr)
          throw FormatError("[savedmodel] a dict key " + k.repr() + " has no structured form");
        value_to_structured(x, &(*fields)[k.as_str()]);
      }
      return;
    }
    case VK::kNamedTuple: {
      const auto& nt = v.named_tuple();
      auto* t = out->mutable_named_tuple_value();
      t->set_name(nt.type_name);
      for (size_t i = 0; i < nt.values.size(); ++i) {
        auto* p = t->add_values();
        p->set_key(i < nt.fields.size() ? nt.fields[i] : std::string());
        value_to_structured(nt.values[i], p->mutable_value());
      }
      return;
    }
    case VK::kTensorSpec: {
      const TensorSpec& s = v.as_spec();
      auto* t = out->mutable_tensor_spec_value();
      if (s.has_name) t->set_name(s.name);
      shape_to_proto(s.shape, t->mutable_shape());
      t->set_dtype(static_cast<tensorflow::DataType>(s.dtype));
      return;
    }
    default:
      throw FormatError("[savedmodel] " + v.repr() + " has no structured form");
  }
}

}  // namespace tfs::savedmodel::detail
