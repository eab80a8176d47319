"""tf.TensorArray as TF 2.21's tensor_array_ops: eagerly a Python list of tensors
(_EagerTensorArray), in a graph a TensorList variant carried as the array's `flow`
(_GraphTensorArrayV2: TensorListReserve, SetItem, GetItem, Stack, FromTensor, Gather,
ScatterIntoExistingList, ConcatV2, Length), with TF's errors and node names.
"""
import logging
import traceback

from . import _core, errors
from ._gen import convert, name_scope
from ._types import TensorShape, as_dtype

_int32 = as_dtype("int32")
_int64 = as_dtype("int64")
_variant = as_dtype("variant")


def _merge(a, b):
    """TensorShape.merge_with; TF's ValueError text when they are incompatible."""
    a, b = TensorShape(a), TensorShape(b)
    if a.rank is None:
        return b
    if b.rank is None:
        return a
    if a.rank != b.rank or not a.is_compatible_with(b):
        raise ValueError("Shapes %s and %s are not compatible" % (a, b))
    return TensorShape([x if x is not None else y for x, y in zip(a.dims, b.dims)])


def _build_element_shape(shape):
    """list_ops._build_element_shape: -1 for an unknown shape, an int32 [] constant for a
    scalar, else the dims with None as -1."""
    if isinstance(shape, _core.Tensor):
        return shape
    if isinstance(shape, TensorShape):
        shape = None if shape.rank is None else shape.as_list()
    if shape is None:
        return -1
    if not shape:
        return _core.convert_named([], _int32, "Const")
    return [-1 if d is None else d for d in shape]


def _check_dtypes(value, dtype):
    if value.dtype != dtype:
        logging.getLogger("tensorflow").error(
            "Error: Input value {} has dtype {}, but expected dtype {}.  This leads to undefined "
            "behavior and will be an error in future versions of TensorFlow.  Traceback:\n{}"
            .format(value, str(value.dtype), str(dtype), "".join(traceback.format_stack())))


def _constant_value(t):
    """tensor_util.constant_value for a size: a Python int, an eager tensor's value, a graph
    Const's value, or None."""
    if t is None or isinstance(t, int):
        return t
    if isinstance(t, _core.Tensor):
        if not t._is_symbolic:
            return int(t.numpy())
        v = _core.autograph_constant_value(t)
        return None if v is None else int(v)
    return None


class _GraphTensorArrayV2:
    def __init__(self, dtype, size=None, dynamic_size=None, flow=None, infer_shape=True,
                 element_shape=None, name=None):
        self._dynamic_size = dynamic_size
        self._size = size
        if flow is not None and (not isinstance(flow, _core.Tensor) or flow.dtype != _variant):
            raise TypeError("Expected `flow` to be a variant tensor, but received `%s` instead."
                            % flow.dtype)
        if flow is None and size is None:
            raise ValueError(
                "Argument `size` must be provided if argument `flow` is not provided.")
        if flow is not None and size is not None:
            raise ValueError(
                "Cannot provide both `flow` and `size` arguments at the same time.")
        if flow is not None and element_shape is not None:
            raise ValueError(
                "Cannot provide both `flow` and `element_shape` argumentsat the same time.")
        self._dtype = as_dtype(dtype)
        self._element_shape = [TensorShape(element_shape)]
        self._infer_shape = infer_shape
        if flow is None:
            with name_scope(name, "TensorArrayV2") as scope:
                self._flow = _core.apply_op(
                    "TensorListReserve",
                    [_build_element_shape(element_shape), size],
                    {"element_dtype": self._dtype, "shape_type": _int32}, scope)
        else:
            self._flow = flow

    @property
    def element_shape(self):
        return self._element_shape[0]

    def _check_element_shape(self, shape):
        if not TensorShape(shape).is_compatible_with(self.element_shape):
            raise ValueError("Inconsistent shapes: saw %s but expected %s "
                             % (shape, self.element_shape))
        if self._infer_shape:
            self._element_shape[0] = _merge(self.element_shape, shape)

    def _new(self, flow):
        ta = TensorArray(self._dtype, flow=flow, infer_shape=self._infer_shape)
        impl = ta._implementation
        impl._dynamic_size = self._dynamic_size
        impl._size = self._size
        impl._element_shape = self._element_shape  # shared, as build_ta_with_new_flow
        return ta

    def identity(self):
        return self._new(_core.apply_op("Identity", [self._flow], None, "Identity"))

    def read(self, index, name=None):
        with name_scope(name, "TensorArrayV2Read"):
            return _core.apply_op(
                "TensorListGetItem",
                [self._flow, index, _build_element_shape(self.element_shape)],
                {"element_dtype": self._dtype}, name)

    def write(self, index, value, name=None):
        with name_scope(name, "TensorArrayV2Write"):
            value = convert(value, self._dtype, "value")
            _check_dtypes(value, self._dtype)
            self._check_element_shape(value.shape)
            flow = _core.apply_op(
                "TensorListSetItem",
                [self._flow, index, value],
                {"element_dtype": value.dtype,
                 "resize_if_index_out_of_bounds": bool(self._dynamic_size)}, name)
            return self._new(flow)

    def stack(self, name=None):
        with name_scope(name, "TensorArrayV2Stack"):
            n = -1
            if not self._dynamic_size and self._size is not None:
                c = _constant_value(self._size)
                n = -1 if c is None else c
            return _core.apply_op(
                "TensorListStack",
                [self._flow, _build_element_shape(self.element_shape)],
                {"element_dtype": self._dtype, "num_elements": n})

    def gather(self, indices, name=None):
        return _core.apply_op(
            "TensorListGather",
            [self._flow, indices, _build_element_shape(self.element_shape)],
            {"element_dtype": self._dtype}, name)

    def concat(self, name=None):
        es = self.element_shape
        shape = None if es.rank is None or es.rank == 0 else [None] + es.dims[1:]
        leading = convert([], _int64, "Const")
        return _core.apply_op(
            "TensorListConcatV2",
            [self._flow, _build_element_shape(shape), leading],
            {"element_dtype": self._dtype, "shape_type": _int32}, name)[0]

    def unstack(self, value, name=None):
        with name_scope(name, "TensorArrayUnstack"):
            value = convert(value, self._dtype, "value")
            _check_dtypes(value, self._dtype)
            rows = value.shape[1:]
            self._check_element_shape(rows)
            flow = _core.apply_op(
                "TensorListFromTensor",
                [value, _build_element_shape(rows)],
                {"element_dtype": value.dtype, "shape_type": _int32})
            return self._new(flow)

    def scatter(self, indices, value, name=None):
        with name_scope(name, "TensorArrayScatter"):
            value = convert(value, self._dtype, "value")
            _check_dtypes(value, self._dtype)
            self._check_element_shape(value.shape[1:])
            flow = _core.apply_op(
                "TensorListScatterIntoExistingList",
                [self._flow, value, indices],
                {"element_dtype": value.dtype})
            return self._new(flow)

    def size(self, name=None):
        if not self._dynamic_size and self._size is not None:
            return convert(self._size, _int32, "Const")
        return _core.apply_op("TensorListLength", [self._flow], None, name)

    def close(self, name=None):
        return _core.apply_op("NoOp", [], None, name)


class _EagerTensorArray:
    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 handle=None, infer_shape=True, element_shape=None):
        if handle is not None:
            raise ValueError(
                "TensorArray handles are not supported when eager execution is enabled.")
        if size is None:
            raise ValueError(
                "Size must be declared for TensorArrays when eager execution is enabled.")
        self._flow = _core.convert_to_tensor(0, _int32)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape)
        self._dtype = as_dtype(dtype)
        self._dynamic_size = dynamic_size or False
        self._clear_after_read = True if clear_after_read is None else clear_after_read
        self._previously_read_indices = []
        if isinstance(size, _core.Tensor):
            size = int(size.numpy())
        self._tensor_array = [None for _ in range(size)]

    @property
    def element_shape(self):
        return self._element_shape

    def identity(self):
        return self.parent()

    def read(self, index, name=None):
        if isinstance(index, _core.Tensor):
            index = int(index.numpy())
        if index < 0:
            raise errors.OutOfRangeError(None, None,
                "Reading from negative indices (index %d) is not allowed." % index)
        if index >= len(self._tensor_array):
            raise errors.OutOfRangeError(
                None, None, "Tried to read from index %d but array size is: %d "
                % (index, len(self._tensor_array)))
        tensor = self._tensor_array[index]
        if tensor is None:
            if index in self._previously_read_indices:
                raise errors.InvalidArgumentError(None, None,
                    "Could not read index %d twice because it was cleared after a previous read "
                    "(perhaps try setting clear_after_read = false?)" % index)
            tensor = self._maybe_zero(index)
        if self._clear_after_read:
            self._tensor_array[index] = None
            self._previously_read_indices.append(index)
        return tensor

    def _write(self, index, value):
        if isinstance(index, _core.Tensor):
            index = int(index.numpy())
        if index < 0:
            raise errors.OutOfRangeError(None, None,
                "Writing to negative indices (index %d) is not allowed." % index)
        size = len(self._tensor_array)
        if index >= size:
            if not self._dynamic_size:
                raise errors.OutOfRangeError(None, None,
                    "Tried to write to index %d but array is not resizeable and "
                    "size is: %d " % (index, size))
            self._tensor_array.extend(None for _ in range(index - size + 1))
        if not isinstance(value, _core.Tensor):
            value = _convert_preferred(value, self._dtype)
        if self._dtype != value.dtype:
            raise errors.InvalidArgumentError(None, None,
                "TensorArray dtype is %s but Op is trying to write dtype %s "
                % (self._dtype.name, value.dtype.name))
        if not self._element_shape.is_compatible_with(value.shape):
            raise ValueError("Incompatible shape for value (%s), expected (%s)"
                             % (value.shape, self._element_shape))
        if self._infer_shape:
            self._element_shape = _merge(self._element_shape, value.shape)
        self._tensor_array[index] = value

    def write(self, index, value, name=None):
        self._write(index, value)
        return self.parent()

    def _maybe_zero(self, ix):
        val = self._tensor_array[ix]
        if val is None:
            val = self._tensor_array[ix] = _zeros(self._element_shape, self._dtype)
        return val

    def stack(self, name=None):
        from . import convert_to_tensor
        if self._tensor_array:
            for ix in range(len(self._tensor_array)):
                self._maybe_zero(ix)
        if not self._tensor_array and self._element_shape.is_fully_defined():
            from . import zeros
            return zeros([0] + self._element_shape.as_list(), self._dtype)
        return convert_to_tensor(self._tensor_array, dtype=self._dtype)

    def gather(self, indices, name=None):
        from . import stack
        if isinstance(indices, _core.Tensor):
            indices = [int(i) for i in indices.numpy().reshape(-1)]
        return stack([self._maybe_zero(i) for i in indices])

    def concat(self, name=None):
        from . import concat
        try:
            return concat([self._maybe_zero(ix) for ix in range(len(self._tensor_array))], 0)
        except errors.OpError:
            ndims = [t.shape.rank for t in self._tensor_array]
            if 0 in ndims:
                raise errors.InvalidArgumentError(None, None,
                    "Concat saw a scalar shape at index %d but requires at least "
                    "vectors." % ndims.index(0))
            raise

    def unstack(self, value, name=None):
        from . import unstack
        tensors = unstack(value)
        if len(tensors) > len(self._tensor_array) and not self._dynamic_size:
            raise ValueError("Cannot unstack %d tensors into a TensorArray of static size %d "
                             % (len(tensors), len(self._tensor_array)))
        self._tensor_array = tensors
        return self.parent()

    def scatter(self, indices, value, name=None):
        from . import unstack
        if isinstance(indices, _core.Tensor):
            indices = [int(i) for i in indices.numpy().reshape(-1)]
        for index, val in zip(indices, unstack(value)):
            self._write(index, val)
        return self.parent()

    def size(self, name=None):
        return _core.convert_to_tensor(len(self._tensor_array), _int32)

    def close(self, name=None):
        del self._tensor_array[:]


def _convert_preferred(value, dtype):
    """ops.convert_to_tensor(value, preferred_dtype=dtype): the dtype if the value converts to
    it, else the value's own."""
    try:
        return _core.convert_to_tensor(value, dtype)
    except (TypeError, ValueError):
        return _core.convert_to_tensor(value, None)


def _zeros(shape, dtype):
    from . import zeros
    if not shape.is_fully_defined():
        raise ValueError("Cannot convert a partially known TensorShape %s to a Tensor." % shape)
    return zeros(shape.as_list() if shape.rank is not None else shape, dtype)


class TensorArray:
    """tf.TensorArray: eagerly a list of tensors, in a tf.function a TensorList (`flow`)."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        if _core.executing_eagerly() and (flow is None or flow.dtype != _variant):
            self._implementation = _EagerTensorArray(
                dtype, size=size, dynamic_size=dynamic_size, clear_after_read=clear_after_read,
                handle=handle, infer_shape=infer_shape, element_shape=element_shape)
        else:
            self._implementation = _GraphTensorArrayV2(
                dtype, size=size, dynamic_size=dynamic_size, flow=flow, infer_shape=infer_shape,
                element_shape=element_shape, name=name)
        self._implementation.parent = lambda: self

    flow = property(lambda self: self._implementation._flow)
    dtype = property(lambda self: self._implementation._dtype)
    handle = property(lambda self: None)
    element_shape = property(lambda self: self._implementation.element_shape)
    dynamic_size = property(lambda self: self._implementation._dynamic_size)

    def identity(self):
        return self._implementation.identity()

    def read(self, index, name=None):
        return self._implementation.read(index, name=name)

    def write(self, index, value, name=None):
        return self._implementation.write(index, value, name=name)

    def stack(self, name=None):
        return self._implementation.stack(name=name)

    def gather(self, indices, name=None):
        return self._implementation.gather(indices, name=name)

    def concat(self, name=None):
        return self._implementation.concat(name=name)

    def unstack(self, value, name=None):
        return self._implementation.unstack(value, name=name)

    def scatter(self, indices, value, name=None):
        return self._implementation.scatter(indices, value, name=name)

    def size(self, name=None):
        return self._implementation.size(name=name)

    def close(self, name=None):
        return self._implementation.close(name=name)

    # As a loop variable or a cond output (nest): its one tensor is the flow.
    def _tfscope_components(self):
        return [self.flow]

    def _tfscope_from_components(self, flat):
        if isinstance(self._implementation, _EagerTensorArray):
            return self
        return self._implementation._new(flat[0])
