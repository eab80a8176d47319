// TF's ValidateStridedSliceOp, shared by the StridedSlice kernels and shape function (src/ops)
// and the HLO lowering (src/hlo): the sparse spec (begin/end/strides with masks, at most one
// ellipsis, new axes) made dense, one entry per input dim, each dim canonicalised and
// bounds-checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/op_def.h"

namespace tfs::detail {

struct StridedSliceSpec {
  std::vector<int64_t> begin, end, strides;  // dense, per input dim, canonical
  std::vector<int64_t> processing;           // per input dim; -1 = unknown
  std::vector<int64_t> final_shape;          // new axes added, shrunk axes removed
};

struct SliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, new_axis = 0, shrink = 0;
};

SliceMasks slice_masks(const AttrMap& a);

// Returns TF's error text, or nullopt with `spec` filled. `begin`/`end` may be null (unknown);
// unknown input dims (-1) stay unknown.
std::optional<std::string> validate_strided_slice(const std::vector<int64_t>& input_dims,
                                                  const std::vector<int64_t>* begin,
                                                  const std::vector<int64_t>* end,
                                                  const std::vector<int64_t>& strides,
                                                  const SliceMasks& m, StridedSliceSpec* spec);

}  // namespace tfs::detail
