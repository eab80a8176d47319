// Front ends for array ops beyond ops.h, as TF's Python wrappers build them: in a graph, the
// host operands become Const nodes inside the op's name scope ("StridedSlice/begin").
#include <climits>

#include "op_scope.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"

namespace tfs {
namespace {

using detail::OpScope;

Tensor int_vector(const std::vector<int64_t>& v, DType dt, const std::string& name) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return convert_to_tensor(Value::list(std::move(items)), dt, name);
}

bool fits_int32(const std::vector<int64_t>& v) {
  for (int64_t x : v) {
    if (x < INT32_MIN || x > INT32_MAX) return false;
  }
  return true;
}

// array_ops_stack.stack on a list of Python ints and scalar tensors: a Const when there is no
// tensor, else TF's autopacking: a Pack in a scope of its own whose int elements become Consts
// named by their position ("stack/1").
Tensor pack_indices(const std::vector<Value>& values) {
  DType dt = DType::kInvalid;
  for (const Value& v : values) {
    if (v.is_tensor()) {
      dt = v.as_tensor().dtype();
      break;
    }
  }
  if (dt == DType::kInvalid) return convert_to_tensor(Value::list(values), DType::kInvalid, "stack");
  OpScope s("stack");
  std::vector<Tensor> elems;
  for (size_t i = 0; i < values.size(); ++i) {
    elems.push_back(values[i].is_tensor() ? values[i].as_tensor()
                                          : convert_to_tensor(values[i], dt, std::to_string(i)));
  }
  return execute1("Pack", elems, {{"axis", int64_t{0}}}, s.op_name());
}

// ops.convert_to_tensor with preferred_dtype, as _apply_op_helper converts an operand whose type
// attr has a default (Tile's multiples, int32): the default where the value converts to it, the
// value's own dtype otherwise ([] is int32, [2.0] stays float32 and fails the attr check).
Tensor convert_preferring(const Value& v, DType preferred, const std::string& name) {
  if (v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable) {
    return convert_to_tensor(v);
  }
  try {
    return convert_to_tensor(v, preferred, name);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTypeError && e.kind() != ErrorKind::kValueError) throw;
  }
  return convert_to_tensor(v, DType::kInvalid, name);
}

}  // namespace

Tensor getitem(const Tensor& x, const std::vector<SliceItem>& items) {
  std::vector<Value> begin, end, strides;
  int64_t begin_mask = 0, end_mask = 0, ellipsis_mask = 0, new_axis_mask = 0, shrink_mask = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const SliceItem& it = items[i];
    const int64_t bit = int64_t{1} << i;
    switch (it.kind) {
      case SliceItem::Kind::kSlice: {
        // Absent bounds take the widest integer dtype among the tensor bounds, if any.
        DType dt = DType::kInvalid;
        for (const auto* b : {&it.start, &it.stop, &it.step}) {
          if (!*b || !(*b)->is_tensor()) continue;
          DType bd = (*b)->as_tensor().dtype();
          if (bd == DType::kInt64) dt = bd;
          else if (bd == DType::kInt32 && dt != DType::kInt64) dt = bd;
          else if (bd == DType::kInt16 && dt == DType::kInvalid) dt = bd;
        }
        auto bound = [&](const std::optional<Value>& b, int64_t dflt, std::vector<Value>& out,
                         int64_t* mask) {
          if (b) {
            out.push_back(*b);
            return;
          }
          out.push_back(dt == DType::kInvalid ? Value(dflt)
                                              : Value(convert_to_tensor(Value(dflt), dt, "Const")));
          if (mask) *mask |= bit;
        };
        bound(it.start, 0, begin, &begin_mask);
        bound(it.stop, 0, end, &end_mask);
        bound(it.step, 1, strides, nullptr);
        break;
      }
      case SliceItem::Kind::kEllipsis:
      case SliceItem::Kind::kNewAxis:
        begin.push_back(Value(0));
        end.push_back(Value(0));
        strides.push_back(Value(1));
        (it.kind == SliceItem::Kind::kEllipsis ? ellipsis_mask : new_axis_mask) |= bit;
        break;
      case SliceItem::Kind::kIndex: {
        begin.push_back(it.index);
        if (it.index.is_tensor()) {
          const Tensor& t = it.index.as_tensor();
          end.push_back(Value(add(Value(t), Value(1))));
          strides.push_back(t.dtype() == DType::kInt64 || t.dtype() == DType::kInt16
                                ? Value(convert_to_tensor(Value(1), t.dtype(), "Const"))
                                : Value(1));
        } else {
          end.push_back(Value(it.index.as_int() + 1));
          strides.push_back(Value(1));
        }
        shrink_mask |= bit;
        break;
      }
    }
  }
  OpScope s("strided_slice");
  Tensor b, e, st;
  if (begin.empty()) {
    b = e = st = convert_to_tensor(Value::list({}), DType::kInt32, "Const");
  } else {
    b = pack_indices(begin);
    e = pack_indices(end);
    st = pack_indices(strides);
    if (b.dtype() == DType::kInt64 || e.dtype() == DType::kInt64 || st.dtype() == DType::kInt64) {
      for (Tensor* t : {&b, &e, &st}) {
        if (t->dtype() != DType::kInt64) *t = cast(*t, DType::kInt64);
      }
    }
  }
  return execute1("StridedSlice", {x, b, e, st},
                  {{"begin_mask", begin_mask},
                   {"end_mask", end_mask},
                   {"ellipsis_mask", ellipsis_mask},
                   {"new_axis_mask", new_axis_mask},
                   {"shrink_axis_mask", shrink_mask}},
                  s.op_name());
}

Tensor strided_slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> end,
                     std::vector<int64_t> strides, int64_t begin_mask, int64_t end_mask,
                     int64_t ellipsis_mask, int64_t new_axis_mask, int64_t shrink_axis_mask) {
  if (strides.empty()) strides.assign(begin.size(), 1);
  OpScope s("StridedSlice");
  DType dt =
      fits_int32(begin) && fits_int32(end) && fits_int32(strides) ? DType::kInt32 : DType::kInt64;
  Tensor b = int_vector(begin, dt, "begin");
  Tensor e = int_vector(end, dt, "end");
  Tensor st = int_vector(strides, dt, "strides");
  return execute1("StridedSlice", {x, b, e, st},
                  {{"begin_mask", begin_mask},
                   {"end_mask", end_mask},
                   {"ellipsis_mask", ellipsis_mask},
                   {"new_axis_mask", new_axis_mask},
                   {"shrink_axis_mask", shrink_axis_mask}},
                  s.op_name());
}

Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis, int64_t batch_dims) {
  OpScope s("GatherV2");
  Tensor ax = convert_to_tensor(Value(axis), DType::kInt32, "axis");
  return execute1("GatherV2", {params, indices, ax}, {{"batch_dims", batch_dims}}, s.op_name());
}

Tensor size(const Tensor& x, DType out_type) {
  return execute1("Size", {x}, {{"out_type", out_type}}, "Size");
}

namespace {

// An eager op with an int32/int64 index operand, executed as TF's generated wrapper runs it: a host
// operand makes the fast path fall back to eager_fallback, whose errors carry no " name: " suffix
// and which checks the index dtype against the OpDef ("Value for attr 'Tidx' of float ...").
Tensor execute_with_index(const std::string& op, const Tensor& x, const Tensor& index,
                          bool host_operand, const std::string& attr, const std::string& signature,
                          const std::string& name) {
  if (!executing_eagerly() || !host_operand) return execute1(op, {x, index}, {}, name);
  if (index.dtype() != DType::kInt32 && index.dtype() != DType::kInt64) {
    invalid_argument(
        "Value for attr '" + attr + "' of " + std::string(dtype_tf_string(index.dtype())) +
        " is not in the list of allowed values: int32, int64\n\t; NodeDef: {{node " + op +
        "}}; Op<name=" + op + "; signature=" + signature + "; attr=T:type; attr=" + attr +
        ":type,default=DT_INT32,allowed=[DT_INT32, DT_INT64]> [Op:" + op + "]");
  }
  EagerErrorName fallback("");
  return execute1(op, {x, index}, {}, name);
}

bool is_host(const Value& v) {
  return v.kind() != Value::Kind::kTensor && v.kind() != Value::Kind::kVariable;
}

}  // namespace

Tensor tile(const Value& input, const Value& multiples) {
  OpScope s("Tile");
  Tensor x = convert_to_tensor(input, DType::kInvalid, "input");
  Tensor m = convert_preferring(multiples, DType::kInt32, "multiples");
  return execute_with_index("Tile", x, m, is_host(input) || is_host(multiples), "Tmultiples",
                            "input:T, multiples:Tmultiples -> output:T", s.op_name());
}

Tensor broadcast_to(const Value& input, const Value& shape) {
  OpScope s("BroadcastTo");
  Tensor x = convert_to_tensor(input, DType::kInvalid, "input");
  Tensor sh = convert_preferring(shape, DType::kInt32, "shape");
  return execute_with_index("BroadcastTo", x, sh, is_host(input) || is_host(shape), "Tidx",
                            "input:T, shape:Tidx -> output:T", s.op_name());
}

}  // namespace tfs
