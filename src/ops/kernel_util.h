// Helpers shared by the op families: dtype lists as TF's OpDefs name them, common shape
// functions, and broadcasting loops. Internal to src/ops.
#pragma once

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/cpu_info.h"
#include "tfscope/op_def.h"

namespace tfs::detail {

inline const std::vector<DType> kFloatTypes = {DType::kFloat32, DType::kFloat64};
inline const std::vector<DType> kIntTypes = {DType::kInt8, DType::kInt16, DType::kInt32,
                                             DType::kInt64, DType::kUInt8};
inline const std::vector<DType> kNumberTypes = {DType::kFloat32, DType::kFloat64, DType::kInt8,
                                                DType::kInt16,   DType::kInt32,   DType::kInt64,
                                                DType::kUInt8};
// The number types without the unsigned one (TF's Abs, Neg, Pow).
inline const std::vector<DType> kSignedNumberTypes = {
    DType::kFloat32, DType::kFloat64, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64};
inline const std::vector<DType> kIndexTypes = {DType::kInt32, DType::kInt64};

// Whether TF 2.21 runs an op of this dtype through oneDNN here: its oneDNN kernels (and their
// texts) are float32 only, and only where TF enables oneDNN (tf_onednn_enabled()).
inline bool tf_runs_onednn(DType t) {
  return t == DType::kFloat32 && tf_onednn_enabled();
}

// "[2,3]" as TF's runtime errors print shapes.
std::string dims_text(const Shape& s);

// Shape functions.
void same_shape_fn(InferenceContext& c);       // output 0 = input 0
void broadcast_shape_fn(InferenceContext& c);  // numpy broadcasting of inputs 0 and 1
void scalar_shape_fn(InferenceContext& c);

// Values of a constant int vector input (nullopt if unknown).
std::optional<std::vector<int64_t>> const_ints(const InferenceContext& c, int i);
std::vector<int64_t> tensor_ints(const Tensor& t);

// Index helpers for broadcasting: strides of `in` aligned to `out` (0 where broadcast).
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

// Iterate all output positions of `out` with the two broadcast input offsets.
template <typename F>
void for_each_broadcast(const Shape& out, const std::vector<int64_t>& sa,
                        const std::vector<int64_t>& sb, F f) {
  int r = out.rank();
  int64_t n = out.num_elements();
  if (n == 0) return;
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  int64_t oa = 0, ob = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(k, oa, ob);
    for (int d = r - 1; d >= 0; --d) {
      size_t ud = static_cast<size_t>(d);
      if (++idx[ud] < out.dim(d)) {
        oa += sa[ud];
        ob += sb[ud];
        break;
      }
      oa -= sa[ud] * (out.dim(d) - 1);
      ob -= sb[ud] * (out.dim(d) - 1);
      idx[ud] = 0;
    }
  }
}

// Normalise a possibly negative axis against `rank`; fails with TF's text when out of range.
int64_t canonical_axis(int64_t axis, int rank, const std::string& what);

// Shape-function helpers with TF's texts (InferenceContext::WithRank, Merge, ...).
// "[2,?]" as TF's shape-function errors print a shape; "?" for unknown rank.
std::string shape_text(const PartialShape& s);
void with_rank(const InferenceContext& c, const PartialShape& s, int64_t rank);
void with_rank_at_least(const InferenceContext& c, const PartialShape& s, int64_t rank);
void with_value(const InferenceContext& c, int64_t dim, int64_t want);
// InferenceContext::Merge: the more specific of two compatible shapes, or TF's error text.
std::optional<std::string> merge_shapes(const PartialShape& a, const PartialShape& b,
                                        PartialShape* out);
// InferenceContext::MakeShapeFromShapeTensor: a known value gives dims (-1 = unknown), a known
// length gives that many unknown dims.
PartialShape shape_from_shape_tensor(const InferenceContext& c, int i);
// A dims vector from a kernel's shape input, with TensorShapeUtils::MakeShape's error.
Shape make_shape(OpKernelContext& ctx, const std::vector<int64_t>& dims);

// Copies elements between two tensors of one dtype by flat index (numeric, bool or string).
class Mover {
 public:
  Mover(const Tensor& src, Tensor& dst)
      : strings_(src.dtype() == DType::kString), esize_(dtype_size(src.dtype())) {
    if (strings_) {
      ssrc_ = &src.string_values();
      sdst_ = &dst.mutable_string_values();
    } else {
      src_ = static_cast<const char*>(src.raw_data());
      dst_ = static_cast<char*>(dst.raw_data());
    }
  }
  void copy(int64_t to, int64_t from, int64_t n = 1) const {
    if (n <= 0) return;
    if (strings_) {
      std::copy_n(ssrc_->begin() + from, n, sdst_->begin() + to);
    } else {
      std::memcpy(dst_ + static_cast<size_t>(to) * esize_,
                  src_ + static_cast<size_t>(from) * esize_, static_cast<size_t>(n) * esize_);
    }
  }

 private:
  bool strings_;
  size_t esize_;
  const char* src_ = nullptr;
  char* dst_ = nullptr;
  const std::vector<std::string>* ssrc_ = nullptr;
  std::vector<std::string>* sdst_ = nullptr;
};

}  // namespace tfs::detail
