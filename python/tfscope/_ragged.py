"""A minimal tf.RaggedTensor (one ragged dimension over 1-D flat values), built from the ops TF's
ragged_tensor.py / row_partition.py stage, so a graph holds TF's nodes: from_value_rowids
(bincount: Size, Greater, Max, Maximum, Minimum, DenseBincount; then Cumsum and ConcatV2),
to_tensor (RaggedTensorToTensor), and tf.math.bincount over the same ops.

A RaggedTensor traces as its RaggedTensorSpec (the tf.types.experimental protocol of
_trace_type.py): an argument of a tf.function is two graph inputs (flat_values, row_splits), keyed
by dtype, ragged_rank, row_splits_dtype and the shape (rows, None); a result is flattened into
the same two tensors and packed back (to_tensors/from_tensors); tf.nest's expand_composites sees
the same two components.

Not modelled: more than one ragged dimension, flat values of rank > 1, ragged operators (+,
tf.map_fn, ...)."""
import numpy as _np

from . import _core
from ._gen import name_scope
from ._trace_type import TraceType
from ._types import TensorShape, TensorSpec, as_dtype

_int32, _int64 = as_dtype("int32"), as_dtype("int64")


def _tf():
    import tfscope
    return tfscope


def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=_int32, name=None,
             axis=None, binary_output=False):
    """tf.math.bincount for a 1-D arr (TF's ops: the output size from Size and Max, clamped by
    minlength/maxlength, then DenseBincount)."""
    tf = _tf()
    if axis not in (None, 0, -1):
        raise NotImplementedError("[python] tf.math.bincount with axis=%r is not supported" % (axis,))
    with name_scope(name or "bincount", "bincount"):
        arr = tf.convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = tf.convert_to_tensor(weights, name="weights")
            dtype = weights.dtype
        array_is_nonempty = tf.size(arr) > 0
        output_size = tf.cast(array_is_nonempty, _int32) * (tf.reduce_max(arr) + 1)
        if minlength is not None:
            minlength = tf.convert_to_tensor(minlength, name="minlength", dtype=_int32)
            output_size = tf.maximum(minlength, output_size)
        if maxlength is not None:
            maxlength = tf.convert_to_tensor(maxlength, name="maxlength", dtype=_int32)
            output_size = tf.minimum(maxlength, output_size)
        arr = tf.reshape(arr, [-1])
        if weights is None:
            weights = tf.constant([], as_dtype(dtype))
        else:
            weights = tf.reshape(weights, [-1])
        return _core.apply_op("DenseBincount", [arr, output_size, weights],
                              {"binary_output": bool(binary_output)})


class RaggedTensor:
    """values (1-D) with row_splits (int64); optionally the value_rowids, nrows and row_lengths
    it was built from (TF caches them on its RowPartition and uses them in to_tensor)."""

    def __init__(self, values, row_splits, value_rowids=None, nrows=None, row_lengths=None):
        self._values, self._row_splits = values, row_splits
        self._value_rowids, self._nrows, self._row_lengths = value_rowids, nrows, row_lengths

    # ---- construction ----
    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        tf = _tf()
        with name_scope(name, "RaggedFromValueRowIds"):
            values = tf.convert_to_tensor(values)
            with name_scope(None, "RowPartitionFromValueRowIds"):
                value_rowids = tf.convert_to_tensor(value_rowids, _int64)
                if nrows is None:
                    nrows = tf.reduce_max(value_rowids) + 1  # (TF: 0 rows when empty)
                nrows = tf.convert_to_tensor(nrows, _int64)
                rowids32 = tf.cast(value_rowids, _int32)
                nrows32 = tf.cast(nrows, _int32)
                row_lengths = bincount(rowids32, minlength=nrows32, maxlength=nrows32,
                                       dtype=_int64)
                row_splits = tf.concat([[0], tf.math.cumsum(row_lengths)], axis=0)
        return cls(values, row_splits, value_rowids, nrows, row_lengths)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        tf = _tf()
        with name_scope(name, "RaggedFromRowSplits"):
            values = tf.convert_to_tensor(values)
            row_splits = _splits_tensor(row_splits)
            if validate and _core.executing_eagerly():
                _check_splits(row_splits.numpy(), int(values.shape[0]))
        return cls(values, row_splits)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        tf = _tf()
        with name_scope(name, "RaggedFromRowLengths"):
            values = tf.convert_to_tensor(values)
            row_lengths = tf.convert_to_tensor(row_lengths, _int64)
            row_splits = tf.concat([[0], tf.math.cumsum(row_lengths)], axis=0)
            if validate and _core.executing_eagerly():
                _check_splits(row_splits.numpy(), int(values.shape[0]))
        return cls(values, row_splits, row_lengths=row_lengths)

    # ---- the parts ----
    @property
    def values(self):
        return self._values

    @property
    def flat_values(self):
        return self._values

    @property
    def row_splits(self):
        return self._row_splits

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def ragged_rank(self):
        return 1

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    # ---- tracing and nesting: the spec, and the two component tensors ----
    def __tf_tracing_type__(self, context):
        return RaggedTensorSpec.from_value(self)

    def _tfscope_components(self):
        return [self._values, self._row_splits]

    def _tfscope_from_components(self, flat):
        return RaggedTensor(flat[0], flat[1])

    @property
    def shape(self):
        n = self._row_splits.shape[0]
        return TensorShape([None if n is None else n - 1, None])

    def nrows(self, out_type=None, name=None):
        if self._nrows is not None:
            return self._nrows
        return _tf().shape(self._row_splits, out_type=self._row_splits.dtype)[0] - 1

    def row_lengths(self, axis=1, name=None):
        if self._row_lengths is not None:
            return self._row_lengths
        s = self._row_splits
        return s[1:] - s[:-1]

    def to_tensor(self, default_value=None, name=None, shape=None):
        tf = _tf()
        with name_scope(name, "RaggedToTensor"):
            if default_value is None:
                default_value = tf.zeros((), self.dtype)
            else:
                default_value = tf.convert_to_tensor(default_value, self.dtype,
                                                     name="default_value")
            shape_t = tf.constant(-1 if shape is None else
                                  [-1 if d is None else d for d in shape], _int64)
            if self._value_rowids is not None:
                parts = [self._nrows, self._value_rowids]
                kinds = ["FIRST_DIM_SIZE", "VALUE_ROWIDS"]
            else:
                parts = [self._row_splits]
                kinds = ["ROW_SPLITS"]
            return _core.apply_op("RaggedTensorToTensor",
                                  [shape_t, self._values, default_value, parts],
                                  {"row_partition_types": kinds})

    def to_list(self):
        if not _core.executing_eagerly():
            raise ValueError("RaggedTensor.to_list() is only supported in eager mode.")
        vals, splits = self._values.numpy(), self._row_splits.numpy()
        return [vals[splits[i]:splits[i + 1]].tolist() for i in range(len(splits) - 1)]

    def numpy(self):
        vals, splits = self._values.numpy(), self._row_splits.numpy()
        rows = [vals[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        out = _np.empty(len(rows), dtype=object)
        out[:] = rows
        return out

    def __getitem__(self, key):
        """A row by a Python int, as TF's ragged_getitem stages it: starts and limits sliced
        from the row splits, the row's values sliced between them, then indexed by the (empty)
        inner keys; eagerly a row past the end is TF's IndexError."""
        if not isinstance(key, int):
            raise NotImplementedError("[python] RaggedTensor indexing by %r is not supported"
                                      % (type(key).__name__,))
        with name_scope(None, "RaggedGetItem"):
            starts = self._row_splits[:-1]
            limits = self._row_splits[1:]
            if _core.executing_eagerly() and key >= int(starts.shape[0]):
                raise IndexError("Row key %d out of bounds" % key)
            return self._values[starts[key]:limits[key]][()]

    def __repr__(self):
        if not (self._values._is_symbolic or self._row_splits._is_symbolic):
            return "<tf.RaggedTensor %s>" % _ragged_list_str(self.to_list())
        return "tf.RaggedTensor(values=%s, row_splits=%s)" % (self._values, self._row_splits)

    __str__ = __repr__


class RaggedTensorSpec(TraceType):
    """tf.RaggedTensorSpec: the type of a RaggedTensor (shape with None for the ragged dimension,
    dtype, ragged_rank, row_splits_dtype), as TF's TypeSpec: a function's trace is keyed on it
    and an input_signature may hold one. Its components are the flat values (shape (None,)) and
    the row splits (shape (rows + 1,))."""

    def __init__(self, shape=None, dtype=as_dtype("float32"), ragged_rank=None,
                 row_splits_dtype=_int64, flat_values_spec=None):
        shape = TensorShape(shape)
        if ragged_rank is None:
            if shape.rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = shape.rank - 1
        row_splits_dtype = as_dtype(row_splits_dtype)
        if row_splits_dtype not in (_int32, _int64):
            raise ValueError("dtype must be int32 or int64")
        if flat_values_spec is not None or ragged_rank != 1 or shape.rank not in (None, 2):
            raise NotImplementedError(
                "[python] tfscope's RaggedTensorSpec has one ragged dimension over 1-D values "
                "(got shape %r, ragged_rank %r)" % (shape, ragged_rank))
        self._shape = shape if shape.rank is not None else TensorShape([None, None])
        self._dtype = as_dtype(dtype)
        self._ragged_rank = ragged_rank
        self._row_splits_dtype = row_splits_dtype

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: None)
    value_type = property(lambda self: RaggedTensor)

    @classmethod
    def from_value(cls, value):
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    def _key(self):
        return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def __eq__(self, other):
        return type(other) is RaggedTensorSpec and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("RaggedTensorSpec",) + self._key())

    def __repr__(self):
        return "RaggedTensorSpec(%r, %r, %r, %r)" % self._key()

    # The spec of an input_signature traces as itself (TF's TypeSpec).
    def __tf_tracing_type__(self, context):
        return self

    def is_subtype_of(self, other):
        return (type(other) is RaggedTensorSpec and self._key()[1:] == other._key()[1:] and
                self._shape.is_subtype_of(other._shape))

    def most_specific_common_supertype(self, others):
        if any(type(o) is not RaggedTensorSpec or o._key()[1:] != self._key()[1:]
               for o in others):
            return None
        shape = self._shape.most_specific_common_supertype([o._shape for o in others])
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def _component_specs(self):
        rows = self._shape[0]
        return [TensorSpec(TensorShape([None]), self._dtype),
                TensorSpec(TensorShape([None if rows is None else rows + 1]),
                           self._row_splits_dtype)]

    def flatten(self):
        return self._component_specs()

    def placeholder_value(self, placeholder_context):
        if getattr(placeholder_context, "unnest_only", False):
            return self  # the signature's view
        values, splits = [s.placeholder_value(placeholder_context)
                          for s in self._component_specs()]
        return RaggedTensor(values, splits)

    def to_tensors(self, value):
        return [value.flat_values, value.row_splits]

    def from_tensors(self, tensors):
        values = next(tensors)
        return RaggedTensor(values, next(tensors))

    def cast(self, value, cast_context):
        """`value` checked against this spec component by component, with TF's texts."""
        from . import _nest
        specs = self._component_specs()
        if isinstance(value, RaggedTensorSpec):  # get_concrete_function's spec: a subtype
            if value.is_subtype_of(self):
                return value
            raise TypeError("Can not cast %r to %r" % (value, self))
        if not isinstance(value, RaggedTensor):
            try:
                _nest.assert_same_structure(specs, [value])
            except ValueError as e:
                raise TypeError(str(e)) from None
            raise TypeError("Can not cast %r to %r" % (value, self))
        for spec, t in zip(specs, value._tfscope_components()):
            if t.dtype != spec.dtype or not t.shape.is_compatible_with(spec.shape):
                raise TypeError("Can not cast %r to %r" % (TensorSpec(t.shape, t.dtype), spec))
        return value


def _splits_tensor(row_splits):
    """Row splits as TF takes them: an int32 or int64 tensor kept, anything else as int64."""
    tf = _tf()
    if isinstance(row_splits, tf.Tensor) and row_splits.dtype in (_int32, _int64):
        return row_splits
    return tf.convert_to_tensor(row_splits, _int64)


def _ragged_list_str(rows):
    return "[" + ", ".join("[" + ", ".join(repr(v) for v in r) + "]" for r in rows) + "]"


def _check_splits(splits, nvals):
    """TF's eager validation of a row partition (the assert on the last split)."""
    if len(splits) and int(splits[-1]) != nvals:
        raise _tf().errors.InvalidArgumentError(
            None, None,
            "Arguments to _from_row_partition do not form a valid RaggedTensor\n"
            "Condition x == y did not hold.\nFirst 1 elements of x:\n[%d]\n"
            "First 1 elements of y:\n[%d]" % (int(splits[-1]), nvals))


class ragged:  # noqa: N801  (tf.ragged namespace)
    @staticmethod
    def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
                 row_splits_dtype=_int64):
        """A list of rows (each a list of scalars) as a RaggedTensor."""
        tf = _tf()
        rows = [list(r) for r in pylist]
        flat = [v for r in rows for v in r]
        splits = _np.cumsum([0] + [len(r) for r in rows]).astype(_np.int64)
        if flat:
            values = tf.constant(flat, dtype)
        else:
            values = tf.constant([], dtype or as_dtype("float32"))
        splits_dtype = as_dtype(row_splits_dtype)
        if splits_dtype not in (_int32, _int64):
            raise ValueError("dtype must be int32 or int64")
        return RaggedTensor.from_row_splits(values, tf.constant(splits, splits_dtype),
                                            validate=False)
