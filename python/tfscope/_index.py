"""Splitting, indexing and padding: tf.split, tf.one_hot, tf.eye, tf.where with one operand,
tf.gather_nd, tf.scatter_nd, tf.tensor_scatter_nd_update, tf.pad, tf.reverse, tf.sequence_mask
and tf.linalg.matvec, over the engine's front ends (include/tfscope/ops_index.h)."""
import numbers as _numbers

from . import _core
from ._types import _BY_NAME


def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    if isinstance(num_or_size_splits, _numbers.Integral) and not isinstance(num_or_size_splits, bool):
        num_or_size_splits = int(num_or_size_splits)
    return list(_core.split(value, num_or_size_splits, axis, num))


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    return _core.one_hot(indices, depth, on_value, off_value, -1 if axis is None else axis, dtype)


def eye(num_rows, num_columns=None, batch_shape=None, dtype=_BY_NAME["float32"], name=None):
    for v in (num_rows, num_columns):
        if v is not None and not isinstance(v, _numbers.Integral):
            raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer "
                            f"values. Received: num_rows={num_rows}, num_columns={num_columns}")
    return _core.eye(int(num_rows), num_columns, list(batch_shape or []), dtype)


def where_true(condition):
    return _core.where_true(condition)


def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    if batch_dims:
        raise NotImplementedError("tfscope: gather_nd with batch_dims")
    return _core.gather_nd(params, indices)


def scatter_nd(indices, updates, shape, bad_indices_policy="", name=None):
    return _core.scatter_nd(indices, updates, shape)


def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    return _core.tensor_scatter_nd_update(tensor, indices, updates)


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    return _core.pad(tensor, paddings, mode, constant_values)


def reverse(tensor, axis, name=None):
    return _core.reverse(tensor, axis)


def sequence_mask(lengths, maxlen=None, dtype=_BY_NAME["bool"], name=None):
    return _core.sequence_mask(lengths, maxlen, dtype)


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False, name=None):
    return _core.matvec(a, b, bool(transpose_a or adjoint_a))
