// Front ends for array ops beyond ops.h, as TF's Python wrappers build them: in a graph, the
// host operands become Const nodes inside the op's name scope ("StridedSlice/begin").
#include <climits>

#include "tfscope/ops.h"
#include "tfscope/ops_array.h"

namespace tfs {
namespace {

// The op's name scope while its operands are converted (graph mode only).
class OpScope {
 public:
  explicit OpScope(const std::string& base) : b_(current_builder()), name_(base) {
    if (b_) {
      name_ = b_->unique_name(base, true);
      b_->push_scope(name_);
    }
  }
  ~OpScope() {
    if (b_) b_->pop_scope();
  }
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;
  std::string op_name() const { return b_ ? name_ + "/" : name_; }

 private:
  GraphBuilder* b_;
  std::string name_;
};

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

}  // namespace

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

}  // namespace tfs
