// A numpy array or scalar passed as an op's operand. TF converts it as a host value, not as a
// tensor: where the op's dtype is already known (from a tensor operand before it, or TF's binary
// operators' dtype hint) it becomes a constant of that dtype (numpy's astype: float64 0.125 next
// to a float32 tensor is a float32 0.125, 2.5 next to an int32 tensor is 2); with no dtype known
// it keeps its own (float64 stays float64), and it never fixes the dtype of a list input or of
// TF's eager fast path the way a tensor does. TF's fast path takes an ndarray operand but sends a
// numpy scalar (np.float32(1)) or a bytes down eager_fallback (is_ndarray false).
#pragma once

#include <string>

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

class HostArray : public Object {
 public:
  explicit HostArray(Tensor value, bool is_ndarray = true)
      : value_(std::move(value)), is_ndarray_(is_ndarray) {}
  const Tensor& value() const { return value_; }
  bool is_ndarray() const { return is_ndarray_; }
  std::string repr() const override { return value_.repr(); }

 private:
  Tensor value_;  // eager, with the numpy array's dtype and shape
  bool is_ndarray_;
};

// The operand Value of a numpy array already converted to an eager tensor.
Value host_array(Tensor value, bool is_ndarray = true);

// The array `v` holds, or null when it is not a HostArray.
const Tensor* as_host_array(const Value& v);
// The HostArray `v` holds, or null.
const HostArray* host_array_object(const Value& v);

// numpy's astype on an eager tensor (TF's make_tensor_proto of a numpy value with a dtype): the
// Cast kernel run eagerly, also inside a trace.
Tensor astype(const Tensor& t, DType dtype);

}  // namespace tfs
