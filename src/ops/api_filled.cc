// tf.zeros / tf.ones with a shape list that holds tensors ([tf.shape(x)[0], 16], the RNN
// initial-state idiom), named as TF's wrappers build them.
#include "op_scope.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"

namespace tfs {

namespace {

Tensor filled_from_list(const Value& shape, DType dtype, bool one, const char* scope) {
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
