// TensorList ops (DT_VARIANT values) and the tf.TensorArray calls that build them in graphs, as
// TF 2.21's TensorArray (v2) does: AutoGraph's `for x in tensor` unstacks the tensor into a list
// and reads one element per iteration.
#pragma once

#include <memory>
#include <vector>

#include "tfscope/ops.h"

namespace tfs {

// The value a variant tensor holds for the TensorList ops. Immutable once wrapped in a tensor:
// a kernel that "changes" a list makes a new one (element tensors are shared handles).
class TensorList : public ResourceBase {
 public:
  DType element_dtype = DType::kInvalid;
  PartialShape element_shape;     // what the list was made with; elements may be more specific
  std::vector<Tensor> tensors;    // an undefined Tensor is an element never set
  int64_t max_num_elements = -1;  // EmptyTensorList's bound on TensorListPushBack; -1: none
  std::string debug_name() const override { return "TensorList"; }
};

// The eager list a variant tensor holds; throws InvalidArgument if it holds none.
const TensorList& tensor_list_of(const Tensor& t);

// tf.TensorArray in a graph: the list tensor that carries its state ("flow"), its dtype and the
// element shape it has inferred so far.
struct TensorArrayFlow {
  Tensor flow;
  DType dtype = DType::kInvalid;
  PartialShape element_shape;
};

// tf.TensorArray(dtype, size=size): a TensorListReserve named "TensorArrayV2" (size is an int or
// an int32 tensor).
TensorArrayFlow tensor_array(DType dtype, const Value& size);
// ta.unstack(value): TensorListFromTensor in a "TensorArrayUnstack" scope; the element shape
// becomes value.shape[1:] merged with what `ta` knew. Fails with TF's text when they disagree.
TensorArrayFlow tensor_array_unstack(const TensorArrayFlow& ta, const Tensor& value);
// ta.read(index): TensorListGetItem in a "TensorArrayV2Read" scope.
Tensor tensor_array_read(const TensorArrayFlow& ta, const Value& index);

// list_ops._build_element_shape, then the conversion TF's op wrapper does: an unknown shape is
// -1 and a known one a list of dims (both converted as the op's "element_shape" input); a scalar
// element shape is an empty int32 vector converted first, named "Const".
Value list_element_shape(const PartialShape& s);

}  // namespace tfs
