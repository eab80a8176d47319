// The order in which a binary front end (tfs::add, tfs::multiply, tfs::where, ...) converts its
// two operands, as the Python wrapper that called it does in TF:
// - kTensorFirst: TF's operators (`x * 2`, `2 * x`, `x / np.sqrt(d)`): the host operand becomes
//   the tensor operand's dtype, whichever side it is on.
// - kInOrder: math_ops.add (tf.add): x first with its own dtype, then y to x's dtype, so
//   tf.add(np.float64(1), float32_x) fails as in TF.
// - kInOrderInGraph: a generated op wrapper (tf.multiply, tf.maximum, tf.where, tf.equal, ...):
//   in input order in a graph (op_def_library), tensor first eagerly (the fast path binds the
//   dtype from a tensor operand before converting the others).
// The wrapper sets it for the duration of one call with OperandOrderScope.
#pragma once

namespace tfs {

enum class OperandOrder { kTensorFirst, kInOrder, kInOrderInGraph };

class OperandOrderScope {
 public:
  explicit OperandOrderScope(OperandOrder order);
  ~OperandOrderScope();
  OperandOrderScope(const OperandOrderScope&) = delete;
  OperandOrderScope& operator=(const OperandOrderScope&) = delete;
  // The order of the innermost scope on this thread (kTensorFirst when none is open).
  static OperandOrder current();
  // Whether a front end converts x before y whatever they are: kInOrder, or kInOrderInGraph
  // while a graph is being built.
  static bool in_input_order();

 private:
  OperandOrder previous_;
};

}  // namespace tfs
