"""DType, TensorShape and TensorSpec: the small value classes of the tf.* API."""
import numpy as _np

_ENUM_NAMES = {1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
               7: "string", 8: "complex64", 9: "int64", 10: "bool", 18: "complex128",
               20: "resource", 21: "variant"}


class DType:
    """A tensor element type; prints as TF prints it (``tf.int32``)."""

    _cache = {}

    def __new__(cls, type_enum, handle_data=None):
        if type_enum in cls._cache:
            return cls._cache[type_enum]
        self = object.__new__(cls)
        self._enum = type_enum
        self._name = _ENUM_NAMES[type_enum]
        cls._cache[type_enum] = self
        return self

    name = property(lambda self: self._name)
    base_dtype = property(lambda self: self)
    as_datatype_enum = property(lambda self: self._enum)
    is_floating = property(lambda self: self._name in ("float32", "float64"))
    is_integer = property(lambda self: self._name in ("int8", "int16", "int32", "int64", "uint8"))
    is_bool = property(lambda self: self._name == "bool")
    is_complex = property(lambda self: self._name in ("complex64", "complex128"))

    @property
    def real_dtype(self):
        """complex64 -> float32, complex128 -> float64; any other dtype is its own."""
        return {"complex64": DType(1), "complex128": DType(2)}.get(self._name, self)

    @property
    def as_numpy_dtype(self):
        if self._name == "string":
            return _np.object_
        return _np.dtype(self._name).type

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: '%s'>" % self._name

    def __eq__(self, other):
        if isinstance(other, DType):
            return self is other
        try:
            return as_dtype(other) is self
        except (TypeError, KeyError, ValueError):
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._enum)

    def __reduce__(self):
        return (DType, (self._enum,))


_BY_NAME = {n: DType(e) for e, n in _ENUM_NAMES.items()}
_BY_NAME["float"] = _BY_NAME["float32"]
_BY_NAME["double"] = _BY_NAME["float64"]


def as_dtype(type_value):
    x = type_value
    if isinstance(x, DType):
        return x
    if isinstance(x, str):
        return _BY_NAME[x]
    if x is bool:
        return _BY_NAME["bool"]
    if x is int:
        return _BY_NAME["int32"]
    if x is float:
        return _BY_NAME["float32"]
    if isinstance(x, int) and not isinstance(x, bool):  # a DataType enum value: 1 is float32
        if x in _ENUM_NAMES:
            return DType(x)
        raise TypeError("Cannot convert the argument `type_value`: %r to a TensorFlow DType." % x)
    dt = _np.dtype(x)
    if dt.kind in "OSU":
        return _BY_NAME["string"]
    return _BY_NAME[dt.name]


class TensorShape:
    """A possibly partial shape: ``(2, None)``; ``<unknown>`` when the rank is unknown."""

    def __init__(self, dims):
        if isinstance(dims, TensorShape):
            dims = dims._dims
        if dims is None:
            self._dims = None
        elif isinstance(dims, int):
            self._dims = (dims,)
        else:
            self._dims = tuple(None if d is None else int(d) for d in dims)

    @property
    def rank(self):
        return None if self._dims is None else len(self._dims)

    ndims = rank

    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    def as_list(self):
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self):
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def is_subtype_of(self, other):
        """TF's TraceType rule: `other` of unknown rank, or the same rank with each of other's
        known dims equal to this one's."""
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    def most_specific_common_supertype(self, others):
        """The shape keeping the dims all agree on (None elsewhere); unknown rank when a rank
        is unknown or the ranks differ."""
        dims = self._dims
        for o in others:
            if dims is None or o._dims is None or len(dims) != len(o._dims):
                return TensorShape(None)
            dims = tuple(a if a == b else None for a, b in zip(dims, o._dims))
        return TensorShape(dims)

    def __len__(self):
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return None if isinstance(key, int) else TensorShape(None)
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other):
        try:
            other = TensorShape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self):
        return hash(self._dims)

    def __str__(self):
        if self._dims is None:
            return "<unknown>"
        inner = ", ".join("None" if d is None else str(d) for d in self._dims)
        return "(" + inner + ("," if len(self._dims) == 1 else "") + ")"

    def __repr__(self):
        if self._dims is None:
            return "TensorShape(None)"
        return "TensorShape([%s])" % ", ".join("None" if d is None else str(d) for d in self._dims)


class TensorSpec:
    """Describes a tensor: shape (``None`` dims allowed), dtype and an optional name."""

    def __init__(self, shape, dtype=_BY_NAME["float32"], name=None):
        self.shape = TensorShape(shape)
        self.dtype = as_dtype(dtype) if dtype is not None else _BY_NAME["float32"]
        self.name = name

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, spec_or_tensor):
        other = spec_or_tensor
        return self.dtype == other.dtype and self.shape.is_compatible_with(other.shape)

    # As a TraceType's component (tfscope._trace_type): inside a placeholder_value call, a graph
    # input of the function being traced; a value of this spec is the one tensor it feeds.
    def placeholder_value(self, placeholder_context):
        return placeholder_context._placeholder(self)

    def to_tensors(self, value):
        return [value]

    def flatten(self):
        return [self]

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (self.shape, self.dtype, self.name)

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape and
                self.dtype == other.dtype and self.name == other.name)

    def __hash__(self):
        return hash((self.shape, self.dtype, self.name))


def _make_spec(dims, enum, name):
    return TensorSpec(TensorShape(dims), DType(enum), name)


class VariableSpec:
    """tf.VariableSpec as it appears in a structured_input_signature."""

    def __init__(self, shape, dtype=None, trainable=True, alias_id=None):
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtype
        self.trainable = trainable
        self.alias_id = alias_id

    def __repr__(self):
        return "VariableSpec(shape=%s, dtype=%r, trainable=%s, alias_id=%s)" % (
            self.shape, self.dtype, self.trainable, self.alias_id)

    def __eq__(self, other):
        return (isinstance(other, VariableSpec) and
                (self.shape, self.dtype, self.trainable, self.alias_id) ==
                (other.shape, other.dtype, other.trainable, other.alias_id))

    def __hash__(self):
        return hash((str(self.shape), self.dtype, self.trainable, self.alias_id))
