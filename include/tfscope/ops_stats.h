// Front-end functions for normalization and statistics, as TF 2.21's Python functions build
// them (their name scopes, node names and the arithmetic they do on Python numbers):
// tf.nn.moments, tf.nn.batch_normalization, tf.nn.l2_normalize, tf.math.reduce_variance /
// reduce_std, tf.math.squared_difference, tf.stop_gradient, tf.math.cumsum, tf.math.top_k,
// tf.sort / tf.argsort and tf.nn.embedding_lookup.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

Tensor stop_gradient(const Value& x);                       // StopGradient
Tensor squared_difference(const Value& x, const Value& y);  // SquaredDifference
// Mean, StopGradient, SquaredDifference, Mean in a "moments" scope, then Squeeze unless keepdims.
// `axes` is None, an int or a list of ints.
std::pair<Tensor, Tensor> moments(const Value& x, const Value& axes, bool keepdims = false);
// (x * inv + (offset - mean * inv)) with inv = rsqrt(variance + epsilon) * scale; offset and
// scale may be None; Python numbers are combined in Python first, as TF's code does.
Tensor batch_normalization(const Value& x, const Value& mean, const Value& variance,
                           const Value& offset, const Value& scale, double variance_epsilon);
// x * rsqrt(maximum(sum(square(x), axis, keepdims), epsilon)), the Mul named "l2_normalize".
Tensor l2_normalize(const Value& x, const Value& axis, double epsilon = 1e-12);
Tensor reduce_variance(const Value& x, const Value& axis, bool keepdims = false);
Tensor reduce_std(const Value& x, const Value& axis, bool keepdims = false);
Tensor cumsum(const Value& x, const Value& axis, bool exclusive = false, bool reverse = false);
// TopKV2: (values, indices).
std::pair<Tensor, Tensor> top_k(const Value& x, const Value& k, bool sorted = true,
                                DType index_type = DType::kInt32);
// tf.sort / tf.argsort: TopKV2 over the axis (swapped with the last one by a Transpose when it
// is not last), of -x (floats), -x - 1 (signed ints) or max - x (unsigned) when ascending.
// direction is "ASCENDING" or "DESCENDING" (else TF's ValueError).
Tensor sort(const Value& values, int64_t axis = -1, const std::string& direction = "ASCENDING");
Tensor argsort(const Value& values, int64_t axis = -1, const std::string& direction = "ASCENDING");
// One params tensor: GatherV2 named "embedding_lookup", then its Identity.
Tensor embedding_lookup(const Value& params, const Value& ids);

}  // namespace tfs
