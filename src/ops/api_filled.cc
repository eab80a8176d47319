// tf.zeros / tf.ones with a shape list that holds tensors ([tf.shape(x)[0], 16], the RNN
// initial-state idiom), named as TF's wrappers build them.
#include <optional>
#include <vector>

#include "op_scope.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"

namespace tfs {

namespace {

// The dims of a shape list of Python ints and eager integer scalars: what TF's TensorShape(shape)
// (and, in a graph, np.prod for _constant_if_small) reads from it; nullopt when an element is
// symbolic or anything else, or a dim is negative (then the list is packed).
std::optional<std::vector<int64_t>> static_dims(const Value& shape) {
  std::vector<int64_t> dims;
  for (const Value& it : shape.items()) {
    if (it.kind() == Value::Kind::kInt) {
      dims.push_back(it.as_int());
      continue;
    }
    if (it.kind() != Value::Kind::kTensor) return std::nullopt;
    const Tensor& t = it.as_tensor();
    if (!t.is_eager() || t.eager_shape().rank() != 0 ||
        (t.dtype() != DType::kInt32 && t.dtype() != DType::kInt64))
      return std::nullopt;
    dims.push_back(t.item<int64_t>());
  }
  for (int64_t d : dims)
    if (d < 0) return std::nullopt;
  return dims;
}

Tensor filled_from_list(const Value& shape, DType dtype, bool one, const char* scope) {
  if (auto dims = static_dims(shape)) return one ? ones(*dims, dtype) : zeros(*dims, dtype);
  detail::OpScope s(scope);
  Tensor dims = autopack(shape, DType::kInt32, "packed");
  Value fill_value;
  if (dtype == DType::kBool)
    fill_value = Value(one);
  else if (dtype == DType::kString)
    fill_value = Value(std::string());
  else
    fill_value = Value(int64_t{one ? 1 : 0});
  Tensor value = convert_to_tensor(fill_value, dtype, "Const");
  return execute1("Fill", {dims, value}, {}, s.op_name());
}

}  // namespace

Tensor zeros_from_list(const Value& shape, DType dtype) {
  return filled_from_list(shape, dtype, false, "zeros");
}

Tensor ones_from_list(const Value& shape, DType dtype) {
  return filled_from_list(shape, dtype, true, "ones");
}

}  // namespace tfs
