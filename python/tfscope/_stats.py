"""Normalization and statistics: tf.nn.moments, batch_normalization, l2_normalize,
embedding_lookup, tf.math.reduce_variance/reduce_std/squared_difference/cumsum/top_k, tf.sort,
tf.argsort and tf.stop_gradient, over the engine's front ends (include/tfscope/ops_stats.h),
which build the nodes TF 2.21's Python functions build."""
import collections as _collections

import numpy as _np

from . import _core
from ._types import _BY_NAME, as_dtype

TopKV2 = _collections.namedtuple("TopKV2", ["values", "indices"])


def stop_gradient(input, name=None):  # noqa: A002
    return _core.stop_gradient(input)


def squared_difference(x, y, name=None):
    return _core.named_in_order(False, "SquaredDifference", name, _core.squared_difference, x, y)


def moments(x, axes, shift=None, keepdims=False, name=None):
    return _core.moments(x, axes, keepdims)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    return _core.batch_normalization(x, mean, variance, offset, scale, float(variance_epsilon))


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    return _core.l2_normalize(x, dim if axis is None else axis, float(epsilon))


def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    return _core.reduce_variance(input_tensor, axis, keepdims)


def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    return _core.reduce_std(input_tensor, axis, keepdims)


def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    return _core.cumsum(x, axis, exclusive, reverse)


def top_k(input, k=1, sorted=True, index_type=_BY_NAME["int32"], name=None):  # noqa: A002
    values, indices = _core.top_k(input, k, sorted, None if index_type is None else as_dtype(index_type))
    return TopKV2(values, indices)


def _constant_axis(axis):
    """sort_ops: the axis must be a constant scalar (a Python int or a scalar eager tensor)."""
    if isinstance(axis, (int, _np.integer)) and not isinstance(axis, bool):
        return int(axis)
    value = None
    if isinstance(axis, _core.Tensor) and _core.executing_eagerly():
        value = axis.numpy()
    elif not isinstance(axis, _core.Tensor):
        value = _np.asarray(axis)
    if value is None or _np.ndim(value) != 0:
        shown = axis if value is None else value  # an eager tensor formats as its numpy value
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={shown}.")
    return int(value)


def _check_direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")


def sort(values, axis=-1, direction="ASCENDING", name=None):
    _check_direction(direction)
    return _core.sort(values, _constant_axis(axis), direction, False)


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    _check_direction(direction)
    return _core.sort(values, _constant_axis(axis), direction, True)


def embedding_lookup(params, ids, max_norm=None, name=None):
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("tfscope: embedding_lookup over partitioned params")
        params = params[0]
    if max_norm is not None:
        raise NotImplementedError("tfscope: embedding_lookup with max_norm")
    return _core.embedding_lookup(params, ids)
