// The gradient registry: one gradient function per differentiable op (TF's
// ops.RegisterGradient), built from the front-end ops so that a gradient graph is TF's op for op.
// Adding an op's gradient is one registration (src/autodiff/*_grad.cc).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tfscope/indexed_slices.h"
#include "tfscope/op_def.h"
#include "tfscope/tensor.h"

namespace tfs {

// What a gradient function sees of the forward op (TF's _MockOp on the tape).
struct GradOp {
  std::string type;
  AttrMap attrs;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  std::vector<int> skip_input_indices;  // inputs no source depends on: no gradient needed

  bool skips(int i) const;
};

// Returns one gradient per input; an undefined Tensor is None. `grads` has one entry per
// output (zeros where no gradient reached an output, unless the op accepts None there).
using GradientFunction =
    std::function<std::vector<Tensor>(const GradOp& op, const std::vector<Tensor>& grads)>;

struct GradientRegistration {
  GradientRegistration(const std::string& op, GradientFunction fn);
};
// A gradient function that takes or gives tf.IndexedSlices (TF's gradient functions written for
// them: GatherV2's and ResourceGather's make one, ReadVariableOp's and Identity's pass one on).
// An op with one gets its output gradients as they are; an op without gets them densified
// (UnsortedSegmentSum), as TF's gradient functions convert an IndexedSlices they are given.
using SparseGradientFunction = std::function<std::vector<GradientValue>(
    const GradOp& op, const std::vector<GradientValue>& grads)>;
struct SparseGradientRegistration {
  SparseGradientRegistration(const std::string& op, SparseGradientFunction fn);
};
const SparseGradientFunction* find_sparse_gradient(const std::string& op);

// ops.NotDifferentiable: the op's inputs get None.
struct NotDifferentiable {
  explicit NotDifferentiable(const std::string& op);
};

// The registered function, or null when the op has none. `not_differentiable` is set for ops
// registered as NotDifferentiable (whose function then returns all None).
const GradientFunction* find_gradient(const std::string& op, bool* not_differentiable = nullptr);

// Output indices for which the op's gradient function takes None instead of zeros (TF's
// FunctionsAcceptingNoneForIndicesMap: the second output of the cross-entropy ops).
bool accepts_none_gradient(const std::string& op, int output);

}  // namespace tfs
