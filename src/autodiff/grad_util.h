// What the gradient functions share: TF's generated op wrappers (an op named after its type),
// static shapes as Python's _shape_tuple() reads them, and the broadcasting reductions of
// math_grad.py. Internal to src/autodiff.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tfscope/gradients.h"
#include "tfscope/ops.h"

namespace tfs::autodiff {

// gen_*_ops.<op>(...): the op with its default node name, the op type.
Tensor gen(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs = {});
// The static shape (an eager tensor's own), or nullopt when the rank is unknown.
std::optional<std::vector<int64_t>> shape_tuple(const Tensor& t);
bool fully_defined(const std::optional<std::vector<int64_t>>& s);
// constant_op.constant(list, dtype=int32) named `name`.
Tensor int32_const(const std::vector<int64_t>& v, const std::string& name = "Const");

// math_grad.py's _ReduceGradientArgs: each of gx, gy (either may be undefined) summed over the
// axes its operand was broadcast along and reshaped to the operand's shape.
std::pair<Tensor, Tensor> reduce_gradient_args(const Tensor& x, const Tensor& y, Tensor gx,
                                               Tensor gy);
// _ShapesFullySpecifiedAndEqual.
bool shapes_fully_equal(const Tensor& x, const Tensor& y, const Tensor& grad);
// _IsScalar: a static shape of rank 0.
bool is_scalar(const Tensor& t);
// `with ops.control_dependencies([grad])` for one op made inside it while a graph is built: a
// control input on grad's op, unless the op already reads it (TF skips those).
void control_on(const Tensor& t, const Tensor& grad);
// control_on for the op behind input `i` of t's op (a constant a wrapper converted first).
void control_on_input(const Tensor& t, int i, const Tensor& grad);
// tensor_util.constant_value of an int tensor: an eager value or a Const node's.
std::optional<std::vector<int64_t>> constant_ints(const Tensor& t);
// A host int list (a Python list of ints).
Value int_list(const std::vector<int64_t>& v);
// math_ops.reduced_shape on a static input shape and constant axes: the shape with the reduced
// axes kept as 1.
std::vector<int64_t> kept_dims(std::vector<int64_t> shape, const std::vector<int64_t>& axes);
[[noreturn]] void unimplemented(const std::string& msg);
// _GatherV2Grad off axis 0 or with batch_dims (gather_grad.cc): the dense gradient of params,
// whose shape tensor the caller made first.
Tensor gather_axis_gradient(const GradOp& op, const Tensor& grad, const Tensor& params_shape);
// array_ops.ones(shape) for a shape tensor: Fill of it and a "Const" 1 in the scope "ones".
Tensor ones_of_shape(const Tensor& dims, DType dtype);
// array_ops.ones_like as TF builds it in a graph for a static shape: Fill of the
// "ones_like/Shape/shape_as_tensor" and "ones_like/Const" constants (eagerly, or for a shape known
// only at run time, tfs::ones_like).
Tensor tf_ones_like(const Tensor& x);

}  // namespace tfs::autodiff
