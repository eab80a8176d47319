// tf.GradientTape: records the ops run or staged through execute() while it is active (eagerly,
// or symbolically while a tf.function is traced) and builds their gradients as TF 2.21's
// imperative_grad does, from the gradient functions of the registry (include/tfscope/gradients.h).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfscope/indexed_slices.h"
#include "tfscope/op_def.h"
#include "tfscope/tensor.h"
#include "tfscope/variable_state.h"

namespace tfs {

// tf.UnconnectedGradients: what a source no target depends on gets.
enum class UnconnectedGradients { kNone, kZero };

// A source or target of tape.gradient: a tensor, or a variable (its handle).
struct TapeOperand {
  Tensor tensor;
  std::shared_ptr<VariableState> variable;
  TapeOperand(Tensor t) : tensor(std::move(t)) {}  // NOLINT (implicit, as Python passes either)
  TapeOperand(std::shared_ptr<VariableState> v) : variable(std::move(v)) {}  // NOLINT
};

class GradientTape {
 public:
  explicit GradientTape(bool persistent = false, bool watch_accessed_variables = true);
  ~GradientTape();
  GradientTape(const GradientTape&) = delete;
  GradientTape& operator=(const GradientTape&) = delete;

  // `with tape:`. Entering a tape already recording raises TF's ValueError ("Tape is still
  // recording, ..."); a non-persistent tape already used raises on gradient() instead.
  void enter();
  void exit();
  bool recording() const;

  // tape.watch: tensors of a trainable dtype (float, resource, variant) are followed through the
  // ops that use them; others are watched but never recorded (TF warns, see watch_warning).
  void watch(const TapeOperand& x);
  // Variables watched so far, in the order they were first watched.
  std::vector<std::shared_ptr<VariableState>> watched_variables() const;
  // tape.stop_recording(): ops run while a StopRecording lives are not recorded.
  class StopRecording {
   public:
    explicit StopRecording(GradientTape& t);
    ~StopRecording();
    StopRecording(const StopRecording&) = delete;
    StopRecording& operator=(const StopRecording&) = delete;

   private:
    GradientTape& t_;
  };
  void pause();  // what StopRecording does (TF's ValueError when not recording)
  void resume();
  // tape.reset(): forget everything recorded and watched.
  void reset();

  // tape.gradient over flat targets and sources (the Python layer flattens nests). An undefined
  // output gradient stands for None (ones of the target's shape). Undefined results are None.
  std::vector<Tensor> gradient(const std::vector<TapeOperand>& targets,
                               const std::vector<TapeOperand>& sources,
                               const std::vector<Tensor>& output_gradients = {},
                               UnconnectedGradients unconnected = UnconnectedGradients::kNone);

  // The same, with each gradient as TF's tape.gradient returns it: an IndexedSlices where the
  // path to the source ends in a gather (GatherV2 on axis 0, ResourceGather), which gradient()
  // converts to a tensor (UnsortedSegmentSum).
  std::vector<GradientValue> gradient_values(
      const std::vector<TapeOperand>& targets, const std::vector<TapeOperand>& sources,
      const std::vector<Tensor>& output_gradients = {},
      UnconnectedGradients unconnected = UnconnectedGradients::kNone);

  // tape.jacobian: d target / d source for each source, shaped target.shape + source.shape
  // (undefined: None). tape.batch_jacobian: d target[b] / d source[b] for each b, shaped
  // [batch] + target.shape[1:] + source.shape[1:]. Static shapes only; one backward pass per
  // target element (TF vectorizes them with pfor: same values, another graph).
  std::vector<Tensor> jacobian(const TapeOperand& target, const std::vector<TapeOperand>& sources,
                               UnconnectedGradients unconnected = UnconnectedGradients::kNone);
  Tensor batch_jacobian(const TapeOperand& target, const TapeOperand& source,
                        UnconnectedGradients unconnected = UnconnectedGradients::kNone);

  struct Impl;

 private:
  // One backward pass per seed (an output gradient of the target), on one use of the tape.
  std::vector<std::vector<Tensor>> seeded_gradients(const TapeOperand& target,
                                                    const std::vector<TapeOperand>& sources,
                                                    const std::vector<Tensor>& seeds,
                                                    UnconnectedGradients unconnected);
  std::shared_ptr<Impl> impl_;
};

// record.record_operation, what tf.custom_gradient records: an op whose `outputs` were made from
// `inputs` and whose gradient is `gradient` (one gradient per input, undefined for None, from one
// per output), on every recording tape that follows one of the inputs. Its gradient runs in the
// scope tape.gradient was called in (no gradient_tape/ scope).
using CustomGradient = std::function<std::vector<Tensor>(const std::vector<Tensor>& grads)>;
void record_operation(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                      CustomGradient gradient);

// tf.gradients(ys, xs, grad_ys): the symbolic gradients of a graph being built, without a tape,
// as TF's gradients_util builds them in the name scope `name` ("gradients", made unique). A
// resource source (a variable's handle) is captured. Eagerly TF's RuntimeError.
std::vector<GradientValue> graph_gradients(
    const std::vector<Tensor>& ys, const std::vector<Tensor>& xs,
    const std::vector<Tensor>& grad_ys = {},
    UnconnectedGradients unconnected = UnconnectedGradients::kNone,
    const std::string& name = "gradients");

// TF's warning texts for the dtype checks of watch() and gradient(): empty when the dtype is
// trainable (float types, resource, variant).
std::string watch_warning(DType dtype);
std::string gradient_source_warning(DType dtype);
std::string gradient_target_warning(DType dtype);
bool is_trainable_dtype(DType dtype);

struct GraphFunction;

namespace detail {
// Whether a recording tape of this graph context records an op with these inputs (a trainable
// variable among them is first watched by the tapes that watch accessed variables, as TF's call
// of a function marks its variables accessed).
bool tape_would_record(std::span<const Tensor> inputs);
// An eager call of `fn` that a tape records: runs TF's forward function (fn's outputs, then the
// intermediates its backward function reads), records the call op with them and returns fn's
// outputs. The call's gradient runs the backward function (src/autodiff/function_grad.cc).
std::vector<Tensor> call_recorded(const GraphFunction& fn, const OpDef& call_def,
                                  const AttrMap& attrs, std::span<const Tensor> inputs);
}  // namespace detail

}  // namespace tfs
