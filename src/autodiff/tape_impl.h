// What a tape holds (TF's GradientTape in tensorflow/c/eager/tape.h): the tensors it follows,
// keyed by identity, and the ops recorded on them. Internal to src/autodiff.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/op_def.h"
#include "tfscope/ops.h"
#include "tfscope/tape.h"

namespace tfs::autodiff {

// A tensor's identity on the tape: an eager tensor's handle, a graph tensor's node and output,
// or the resource a handle points to (a variable is one source however often it is read).
using TensorKey = std::pair<const void*, int>;
TensorKey key_of(const Tensor& t);

struct OpRecord {
  const OpDef* def = nullptr;
  AttrMap attrs;
  std::vector<Tensor> inputs;
  std::vector<TensorKey> input_keys;
  std::vector<Tensor> outputs;
  std::vector<TensorKey> output_keys;
  std::string scope;  // the name scope the op was created in ("mul/"), graph mode only
  std::shared_ptr<CustomGradient> custom;  // record_operation's gradient, else the registry's
};

struct TapeData {
  bool persistent = false;
  bool watch_accessed_variables = true;
  // The scope each op's gradient is built in is this prefix and the op's `scope`: TF's tape opens
  // "gradient_tape/<forward scope>"; a function body's gradient (body_grad.cc) its own.
  std::string grad_scope_prefix = "gradient_tape/";
  std::map<TensorKey, int64_t> tensor_tape;  // -1: watched, else the op that made it
  std::map<int64_t, OpRecord> op_tape;
  std::map<TensorKey, Tensor> watched;  // keeps watched tensors alive
  std::vector<std::shared_ptr<VariableState>> variables;
  int64_t next_op = 0;

  void watch(const Tensor& t);
  void watch_variable(const std::shared_ptr<VariableState>& v);
  bool should_record(const std::vector<TensorKey>& keys, std::span<const Tensor> inputs) const;
};

// Several gradients of one tensor summed as TF aggregates them (backprop.cc; tf.gradients'
// _AggregatedGrads does the same): AddN of tensors, IndexedSlices concatenated.
GradientValue aggregate_gradients(const std::vector<GradientValue>& grads);

// The gradient computation of a tape (backprop.cc): TF's imperative_grad.
std::vector<GradientValue> imperative_grad(TapeData& tape, const std::vector<Tensor>& targets,
                                    const std::vector<Tensor>& sources,
                                    const std::vector<Tensor>& output_gradients,
                                    UnconnectedGradients unconnected);

}  // namespace tfs::autodiff

namespace tfs::detail {

// The gradients the tapes recording an op with these inputs make possible: 0 none, 1 first-order
// only (one non-persistent tape), 2 higher-order (a persistent tape, or more than one tape).
int tape_gradient_order(std::span<const Tensor> inputs);

}  // namespace tfs::detail

namespace tfs {

struct GradientTape::Impl {
  bool persistent;
  bool watch_accessed_variables;
  std::shared_ptr<autodiff::TapeData> tape;  // null: none yet, or used up (non-persistent)
  std::vector<std::shared_ptr<VariableState>> last_variables;
  bool recording = false;
  GraphBuilder* builder = nullptr;  // the graph being built when it started recording
};

}  // namespace tfs
