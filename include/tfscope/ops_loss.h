// The losses of training steps: tf.nn.sparse_softmax_cross_entropy_with_logits (its op
// SparseSoftmaxCrossEntropyWithLogits, kernel in TF 2.21's order, in src/ops/xent.cc).
#pragma once

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

// Rank-2 logits [batch, classes] and int32/int64 labels [batch]: the per-example loss, built in
// the "SparseSoftmaxCrossEntropyWithLogits" name scope as TF's wrapper builds it, with its
// ValueErrors for a scalar or mismatched shape.
Tensor sparse_softmax_cross_entropy_with_logits(const Value& labels, const Value& logits);

}  // namespace tfs
