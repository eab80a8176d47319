"""tf.sparse: a minimal SparseTensor (what VarLenFeature parses to) and to_dense."""
import numpy as _np

from . import _core
from ._types import TensorShape


class SparseTensor:
    """indices [n, rank] int64, values [n], dense_shape [rank] int64."""

    def __init__(self, indices, values, dense_shape):
        self.indices = _core.convert_to_tensor(indices, _core_int64())
        self.values = values if isinstance(values, _core.Tensor) else _core.convert_to_tensor(values, None)
        self.dense_shape = _core.convert_to_tensor(dense_shape, _core_int64())

    @property
    def dtype(self):
        return self.values.dtype

    @property
    def shape(self):
        return TensorShape(self.dense_shape.numpy().tolist())

    def __repr__(self):
        return "SparseTensor(indices=%s, values=%s, dense_shape=%s)" % (
            self.indices, self.values, self.dense_shape)


def _core_int64():
    from ._types import as_dtype
    return as_dtype("int64")


def to_dense(sp_input, default_value=None, validate_indices=True, name=None):
    shape = tuple(int(d) for d in sp_input.dense_shape.numpy())
    values = sp_input.values.numpy()
    if values.dtype == object:
        fill = b"" if default_value is None else default_value
        out = _np.full(shape, fill, dtype=object)
    else:
        out = _np.full(shape, 0 if default_value is None else default_value, dtype=values.dtype)
    for idx, v in zip(sp_input.indices.numpy().tolist(), values.tolist() if values.dtype != object else list(values)):
        out[tuple(idx)] = v
    return _core.convert_to_tensor(out, sp_input.values.dtype)
