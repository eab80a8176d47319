// Helpers shared by the TensorList op files (list.cc, list_extra.cc). Internal to src/ops.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfscope/op_def.h"
#include "tfscope/ops_list.h"

namespace tfs::detail {

// The element dtypes a TensorList op accepts.
extern const std::vector<DType> kListElementTypes;
// An element_shape input: a scalar -1 is an unknown rank; a vector lists dims, -1 unknown.
PartialShape element_shape_of(const Tensor& t);
// The same, at graph-construction time, where the input is a constant (else unknown).
PartialShape const_element_shape(const InferenceContext& c, int i);
// TF's PartialTensorShape::DebugString: "[2,?]", "<unknown>".
std::string shape_debug(const PartialShape& s);
Tensor wrap(std::shared_ptr<TensorList> l);
// TF's "Invalid data types; op elements X but list elements Y".
void check_element_dtype(OpKernelContext& ctx, const TensorList& l, DType want);
// Element i, or zeros of the element shape (merged with `requested`) when it was never set.
Tensor element_or_zeros(OpKernelContext& ctx, const TensorList& l, size_t i,
                        const PartialShape& requested);

}  // namespace tfs::detail
