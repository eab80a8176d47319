"""tfscope: TensorFlow 2.21's tf.function rules in a C++ engine, with visibility.

TF code runs with ``import tfscope as tf``; see README.md for the supported subset.
"""
import collections as _collections
import functools as _functools
import logging as _logging
import numbers as _numbers
import sys as _sys

import numpy as _np

if "tensorflow" in _sys.modules:
    # Real TensorFlow is already loaded (tfscope.watch, the lab on a real tf.function): its
    # protobuf is in the process's global symbol scope and _core's generated descriptors for the
    # same .proto files would register into TF's pool (a CHECK failure that aborts). _core binds
    # to its own libprotobuf first.
    import os as _os
    _flags = _sys.getdlopenflags()
    _sys.setdlopenflags(_flags | _os.RTLD_DEEPBIND)
    try:
        from . import _core
    finally:
        _sys.setdlopenflags(_flags)
else:
    from . import _core
from . import errors
from ._types import DType, TensorShape, TensorSpec, as_dtype, _make_spec
from ._trace_type import types
from ._function import Function, ConcreteFunction, function
from ._profile import profile  # noqa: F401  (per-op times of a call: tfscope profile)
from . import _nest as nest
from . import _name_scope
from . import _checkpoint
from ._name_scope import get_current_name_scope, name_scope

Tensor = _core.Tensor
# The generic op binding: a wrapper is `_op(op_type, inputs, attrs, name)` (TF's generated
# wrapper rules: host operands converted to the op's dtypes, in the scope `name`). `_named(base,
# name, fn, *args)` runs a C++ front end that names its node `base` with the node named `name`.
_op = _core.apply_op
_named = _core.named


def _generated(base, name, fn, *args):
    # A generated op wrapper of TF: its operands converted in input order in a graph.
    return _core.named_in_order(False, base, name, fn, *args)



_ITER_SYMBOLIC = (
    "Iterating over a symbolic `tf.Tensor` is not allowed. You can attempt the following "
    "resolutions to the problem: If you are running in Graph mode, use Eager execution mode or "
    "decorate this function with @tf.function. If you are using AutoGraph, you can try decorating "
    "this function with @tf.function. If that does not work, then you may be using an unsupported "
    "feature or your source code may not be visible to AutoGraph. See "
    "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/"
    "reference/limitations.md#access-to-source-code for more information.")


def _tensor_iter(self):
    if not _core.executing_eagerly():
        raise errors.OperatorNotAllowedInGraphError(_ITER_SYMBOLIC)
    if self.shape.rank == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    return iter([self[i] for i in range(self.shape[0])])


Tensor.__iter__ = _tensor_iter
# As tf.Tensor: numpy defers `ndarray - tensor` to Tensor.__rsub__, so the result is a tensor.
Tensor.__array_priority__ = 100


def _tensor_format(self, format_spec):
    # EagerTensor.__format__ formats its numpy value ("{t}" is "[1. 2.]"); a graph tensor its str.
    if self._is_symbolic:
        return str(self).__format__(format_spec)
    if self.dtype == resource or self.dtype == variant:
        return "<unprintable>".__format__(format_spec)
    return self.numpy().__format__(format_spec)


Tensor.__format__ = _tensor_format

float32 = DType(1)
float64 = DType(2)
double = float64
int32 = DType(3)
uint8 = DType(4)
int16 = DType(5)
int8 = DType(6)
string = DType(7)
int64 = DType(9)
bool = DType(10)  # noqa: A001  (tf.bool)
complex64 = DType(8)
complex128 = DType(18)
resource = DType(20)
variant = DType(21)
newaxis = None  # t[..., tf.newaxis]


class _Dtypes:
    DType = DType
    as_dtype = staticmethod(as_dtype)
    float32, float64, int32, int64, int8, int16, uint8, string, bool, resource = (
        float32, float64, int32, int64, int8, int16, uint8, string, bool, resource)
    complex64, complex128 = complex64, complex128


dtypes = _Dtypes()

_namedtuple_types = {}


def _make_namedtuple(type_name, fields, values):
    key = (type_name, tuple(fields))
    cls = _namedtuple_types.get(key)
    if cls is None:
        cls = _collections.namedtuple(type_name, fields)
        _namedtuple_types[key] = cls
    return cls(*values)


class Variable:
    """tf.Variable: state that ops read and write; captured by reference in traced functions."""

    # As TF's variables: numpy defers `np.float64(2) * v` to Variable.__rmul__.
    __array_priority__ = 100

    def __init__(self, initial_value=None, trainable=None, validate_shape=True, caching_device=None,
                 name=None, variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=None, aggregation=None, shape=None,
                 experimental_enable_variable_lifting=True):
        if callable(initial_value):
            initial_value = initial_value()
        self._tfscope_variable = _core.VariableCore(
            initial_value, True if trainable is None else builtins_bool(trainable),
            _name_scope.variable_name(name), None if dtype is None else as_dtype(dtype))
        _function._live_variables[self._tfscope_variable._uid] = self

    @classmethod
    def _wrap(cls, core):
        v = object.__new__(cls)
        v._tfscope_variable = core
        return v

    dtype = property(lambda self: self._tfscope_variable.dtype)
    shape = property(lambda self: self._tfscope_variable.shape)
    name = property(lambda self: self._tfscope_variable.name)
    trainable = property(lambda self: self._tfscope_variable.trainable)
    handle = property(lambda self: self._tfscope_variable.handle)

    def read_value(self):
        return self._tfscope_variable.read_value()

    def value(self):
        return self._tfscope_variable.value()

    def numpy(self):
        return self._tfscope_variable.numpy()

    @property
    def device(self):
        return _CPU_DEVICE

    # TF returns the variable, read lazily when used; read_value=False returns the op (None here).
    def assign(self, value, use_locking=False, name=None, read_value=True):
        # TF's ResourceVariable.assign checks the shapes before the op (its odd spacing kept).
        value_shape = value.shape if isinstance(value, (Tensor, Variable)) else _np.shape(value)
        if not self.shape.is_compatible_with(TensorShape(value_shape)):
            raise ValueError(
                f"Cannot assign value to variable ' {self.name}': Shape mismatch.The variable "
                f"shape {self.shape}, and the assigned value shape {TensorShape(value_shape)} are "
                "incompatible.")
        self._tfscope_variable._assign_op("AssignVariableOp", value)
        return self if read_value else None

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        self._tfscope_variable._assign_op("AssignAddVariableOp", delta)
        return self if read_value else None

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        self._tfscope_variable._assign_op("AssignSubVariableOp", delta)
        return self if read_value else None

    def __repr__(self):
        return repr(self._tfscope_variable)

    def ref(self):
        """A hashable reference to this variable (TF's Reference): equal for the same variable."""
        return _Reference(self)

    def experimental_ref(self):
        return self.ref()

    def __deepcopy__(self, memo):
        # TF's ResourceVariable.__deepcopy__: a new variable of the same name and value.
        if not _core.executing_eagerly():
            raise NotImplementedError(
                "__deepcopy__() is only available when eager execution is enabled.")
        name = self.name[:-2] if self.name.endswith(":0") else self.name
        copied = Variable(self.read_value(), trainable=self.trainable, name=name,
                          dtype=self.dtype)
        memo[id(self)] = copied
        return copied

    def __hash__(self):
        return hash(self._tfscope_variable._uid)

    def __eq__(self, other):
        return self.value() == other

    def __bool__(self):
        return builtins_bool(self.value())

    def __array__(self, dtype=None, copy=None):
        return _np.asarray(self.numpy(), dtype=dtype)

    def __getitem__(self, key):
        return self.value()[key]

    def __float__(self):
        return float(self.numpy())

    def __int__(self):
        return int(self.numpy())


class _Reference:
    """tf.Variable.ref(): hashable by the variable's identity; deref() gives the variable."""

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped):
        self._wrapped = wrapped

    def deref(self):
        return self._wrapped

    # By the variable's state: wrappers made for the same variable (a trace's captures) are equal.
    def __hash__(self):
        return hash(self._wrapped._tfscope_variable._uid)

    def __eq__(self, other):
        return (isinstance(other, _Reference) and
                self._wrapped._tfscope_variable._uid == other._wrapped._tfscope_variable._uid)

    def __repr__(self):
        return "<Reference wrapping %r>" % (self._wrapped,)


def _binop(name, reverse=False):
    def op(self, other):
        v = self.value()
        return getattr(v, name)(other)
    return op


# A missing attribute as TF reports it: TF's tensors are EagerTensor (a C type named by its
# module) and SymbolicTensor, and numpy's method names get TF's pointer to numpy behaviour.
_NUMPY_LIKE_ATTRIBUTES = frozenset(
    {"T", "astype", "ravel", "transpose", "reshape", "clip", "size", "tolist", "data"})


def _tensor_getattr(self, name):
    if any(name in k.__dict__ for k in type(self).__mro__):  # a property that raised its own
        return object.__getattribute__(self, name)  # AttributeError (Tensor.op eagerly): again
    kind = "SymbolicTensor" if self._is_symbolic else "EagerTensor"
    if name in _NUMPY_LIKE_ATTRIBUTES:
        raise AttributeError(
            f"{kind} object has no attribute '{name}'. \n"
            "        If you are looking for numpy-related methods, please run the following:\n"
            "        tf.experimental.numpy.experimental_enable_numpy_behavior()\n      ")
    shown = kind if self._is_symbolic else "tensorflow.python.framework.ops.EagerTensor"
    raise AttributeError(f"'{shown}' object has no attribute '{name}'")


_eager_numpy = Tensor.numpy


def _numpy_attribute(self):
    # A graph tensor has no numpy() at all in TF (hasattr is False), not one that fails.
    if self._is_symbolic:
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")
    return _eager_numpy.__get__(self)


Tensor.numpy = property(_numpy_attribute)
Tensor.__getattr__ = _tensor_getattr

# `[[1., 2.]] @ t`: TF's Tensor.__rmatmul__ is matmul(other, self).
Tensor.__rmatmul__ = lambda self, other: matmul(other, self)

# A variable takes every operator its value has (TF's variables overload the tensor operators).
for _n in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
           "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__",
           "__rpow__", "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__matmul__",
           "__rmatmul__", "__abs__", "__and__", "__rand__", "__or__", "__ror__", "__xor__",
           "__rxor__", "__invert__"):
    if hasattr(Tensor, _n):
        setattr(Variable, _n, (lambda n: (lambda self, *a: getattr(self.value(), n)(*a)))(_n))

import builtins as _builtins  # noqa: E402
builtins_bool = _builtins.bool

_core._register(DType, TensorShape, TensorSpec, _make_spec, errors._BY_NAME, _make_namedtuple,
                Variable)


def _tensorflow_logger():
    """The "tensorflow" logger, set up as TF's tf_logging sets it up: unless the root logger
    already has handlers, its records go to stderr (stdout when interactive) as
    "WARNING:tensorflow:<message>" (logging.BASIC_FORMAT)."""
    logger = _logging.getLogger("tensorflow")
    if not _logging.getLogger().handlers and not logger.handlers:
        interactive = hasattr(_sys, "ps1") or builtins_bool(_sys.flags.interactive)
        if interactive:
            logger.setLevel(_logging.INFO)
        handler = _logging.StreamHandler(_sys.stdout if interactive else _sys.stderr)
        handler.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    return logger


_tensorflow_logger()


def _retracing_warning(msg):
    _logging.getLogger("tensorflow").warning(msg)


_core.set_warning_sink(_retracing_warning)


# ---- tensors ----

def constant(value, dtype=None, shape=None, name="Const"):
    t = _named("Const", name, _core.constant_from_value, value,
               None if dtype is None else as_dtype(dtype))
    if shape is not None and list(t.shape) != list(shape):
        if t.shape.num_elements() == 1:
            t = fill(list(shape), reshape(t, []))
        else:
            t = reshape(t, list(shape))
    return t


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    if dtype is None and dtype_hint is not None and not isinstance(value, (Tensor, Variable)):
        try:
            return _named("Const", name, _core.convert_to_tensor, value, as_dtype(dtype_hint))
        except (TypeError, ValueError):
            pass
    return _named("Const", name, _core.convert_to_tensor, value,
                  None if dtype is None else as_dtype(dtype))


def is_tensor(x):
    return isinstance(x, (Tensor, Variable))


def executing_eagerly():
    return _core.executing_eagerly()


_CPU_DEVICE = "/job:localhost/replica:0/task:0/device:CPU:0"


def _check_device_spec(spec):
    """TF's DeviceSpec parsing, for its errors: "/job:x/replica:0/task:0/device:CPU:0", "CPU:0",
    "/gpu:*", ... (tfscope runs every op on the CPU, as TF's soft placement does here)."""
    if not isinstance(spec, str):
        raise ValueError(f"Expecting a string device name. Got {type(spec)}({spec})")
    device_type = None
    for part in spec.split("/"):
        y = part.split(":")
        if len(y) == 2 and y[0] in ("job", "replica", "task"):
            if y[0] != "job":
                int(y[1])
        elif len(y) in (1, 2) and y[0].upper() in ("CPU", "GPU", "TPU"):
            if device_type is not None:
                raise ValueError("Multiple device types are not allowed while parsing the "
                                 f"device spec: {spec}.")
            device_type = y[0].upper()
            if len(y) == 2 and y[1] != "*":
                int(y[1])
        elif len(y) == 3 and y[0] == "device":
            if device_type is not None:
                raise ValueError("Multiple device types are not allowed while parsing the "
                                 f"device spec: {spec}.")
            device_type = y[1]
            if y[2] != "*":
                int(y[2])
        elif y[0] != "":
            raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the "
                             f"device spec: '{spec}'.")


class device:  # noqa: N801  (a context manager, as tf.device)
    """tf.device(name): checks the device spec when entered; every op runs on the CPU."""

    def __init__(self, device_name):
        self._name = device_name

    def __enter__(self):
        if self._name is not None:
            _check_device_spec(self._name)
        return None

    def __exit__(self, *exc):
        return False


class init_scope:  # noqa: N801  (a context manager, as tf.init_scope)
    """tf.init_scope: ops run eagerly inside it, even while a function is being traced."""

    def __enter__(self):
        # From a graph, its scope is kept in the eager code (TF names what it creates there);
        # eagerly init_scope changes nothing.
        scope = None if _core.executing_eagerly() else _core.get_name_scope()
        _core.enter_init_scope()
        self._eager_scope = _name_scope.enter_init_scope(scope)
        return None

    def __exit__(self, *exc):
        _name_scope.exit_init_scope(self._eager_scope)
        _core.exit_init_scope()
        return False


def _thread_setting(field, value):
    # TF keeps the Python value as given and checks it when it builds its ConfigProto (on a get,
    # or when the context starts): protobuf's int32 field rules and texts.
    if value is None:
        return 0
    if isinstance(value, builtins_bool):
        raise TypeError(f"Field tensorflow.ConfigProto.{field}: Expected an int, got a boolean.")
    if not hasattr(type(value), "__index__"):
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer")
    return value.__index__()


class _Threading:
    """tf.config.threading: TF's rules (context.py): a value may change until the context is
    initialized (its first op, tensor or trace); after that only the same value is accepted."""

    def __init__(self):
        self._values = {"intra_op_parallelism_threads": None, "inter_op_parallelism_threads": None}

    def _set(self, field, which, value):
        if self._values[field] == value:
            return
        if _core.context_initialized():
            raise RuntimeError(f"{which} op parallelism cannot be modified after initialization.")
        self._values[field] = value
        try:
            n = _thread_setting(field, value)
        except TypeError:
            return  # kept as given: the getter raises TF's error
        getattr(_core, f"set_{field}")(n)

    def set_intra_op_parallelism_threads(self, num_threads):
        self._set("intra_op_parallelism_threads", "Intra", num_threads)

    def set_inter_op_parallelism_threads(self, num_threads):
        self._set("inter_op_parallelism_threads", "Inter", num_threads)

    def get_intra_op_parallelism_threads(self):
        return _thread_setting("intra_op_parallelism_threads",
                               self._values["intra_op_parallelism_threads"])

    def get_inter_op_parallelism_threads(self):
        return _thread_setting("inter_op_parallelism_threads",
                               self._values["inter_op_parallelism_threads"])


class config:  # noqa: N801  (tf.config namespace)
    threading = _Threading()

    @staticmethod
    def run_functions_eagerly(run_eagerly):
        _core.run_functions_eagerly(builtins_bool(run_eagerly))

    @staticmethod
    def functions_run_eagerly():
        return _core.functions_run_eagerly()


def shape(input, out_type=None, name=None):  # noqa: A002
    return _named("Shape", name, _core.shape, input, None if out_type is None else as_dtype(out_type))


def size(input, out_type=None, name=None):  # noqa: A002
    if out_type is None or as_dtype(out_type) == int32:
        return _named("Size", name, _core.size, input)
    # array_ops.size_internal: a Const of a static size in a graph, else the Size op.
    x = convert_to_tensor(input)
    if not executing_eagerly() and x.shape.is_fully_defined():
        return constant(x.shape.num_elements(), as_dtype(out_type), name=name or "Size")
    return _op("Size", [x], {"out_type": as_dtype(out_type)}, name or "Size")


def rank(input, name=None):  # noqa: A002
    return _named("Rank", name, _core.rank, input)


def reshape(tensor, shape, name=None):  # noqa: A002
    return _named("Reshape", name, _core.reshape, tensor,
                  list(shape) if isinstance(shape, (TensorShape, tuple)) else shape)


def cast(x, dtype, name=None):
    base = as_dtype(dtype)
    src = getattr(x, "dtype", None)
    if isinstance(src, DType) and src.is_complex and base.is_floating:
        _logging.getLogger("tensorflow").warning(
            "You are casting an input of type %s to an incompatible dtype %s.  This will "
            "discard the imaginary part and may not be what you intended." % (src.name, base.name))
    return _named("Cast", name, _core.cast, x, base)


def identity(input, name=None):  # noqa: A002
    return _op("Identity", [input], None, name)


def expand_dims(input, axis, name=None):  # noqa: A002
    return _named("ExpandDims", name, _core.expand_dims, input, axis)


def squeeze(input, axis=None, name=None):  # noqa: A002
    return _named("Squeeze", name, _core.squeeze, input, axis)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    return _named("transpose", name, _core.transpose, a, perm, True if conjugate else False)


def concat(values, axis, name="concat"):
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        return _named("concat", name, _core.concat, list(values), axis)
    return _op("ConcatV2", [list(values), axis], None, name)


def stack(values, axis=0, name="stack"):
    return _named("stack", name, _core.stack, list(values), axis)


def unstack(value, num=None, axis=0, name="unstack"):
    return _named("unstack", name, _core.unstack, value, axis, num)


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    if axis is None:
        axis = batch_dims
    if isinstance(axis, int) and axis == 0 and hasattr(params, "_tfscope_variable"):
        return params.sparse_read(indices, name=name)  # ResourceGather, as TF's sparse_read
    if batch_dims == 0 and not hasattr(params, "_tfscope_variable"):
        return _named("GatherV2", name, _core.gather, params, indices, axis)
    return _op("GatherV2", [params, indices, axis], {"batch_dims": int(batch_dims)}, name)


def fill(dims, value, name=None, layout=None):
    return _named("Fill", name, _core.fill, dims, value)


def _shape_list(shape):
    return shape if isinstance(shape, Tensor) else [shape] if isinstance(shape, int) else list(shape)


def zeros(shape, dtype=float32, name=None, layout=None):
    return _named("zeros", name, _core.zeros, _shape_list(shape), as_dtype(dtype))


def ones(shape, dtype=float32, name=None, layout=None):
    return _named("ones", name, _core.ones, _shape_list(shape), as_dtype(dtype))


def _filled_like(scope, same, filled, input, dtype, name):  # noqa: A002
    """array_ops.zeros_like/ones_like: another dtype is tf.zeros/tf.ones of the input's shape
    (static when fully known), named in the wrapper's scope."""
    x = convert_to_tensor(input)
    if dtype is None or as_dtype(dtype) == x.dtype:
        return _named(scope, name, same, x)
    dims = x.shape.as_list() if x.shape.is_fully_defined() else shape(x)
    return filled(dims, as_dtype(dtype), name=name or scope)


def zeros_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    return _filled_like("zeros_like", _core.zeros_like, zeros, input, dtype, name)


def ones_like(input, dtype=None, name=None, layout=None):  # noqa: A002
    return _filled_like("ones_like", _core.ones_like, ones, input, dtype, name)


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001
    return _named("range", name, _core.range, start, limit, delta,
                  None if dtype is None else as_dtype(dtype))


def where(condition, x=None, y=None, name=None):
    if x is None and y is None:
        return _index.where_true(condition)  # Where: the coordinates of the true elements
    return _generated("SelectV2", name, _core.where, condition, x, y)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    return _named("MatMul", name, _core.matmul, a, b, transpose_a, transpose_b, adjoint_a,
                  adjoint_b)


def add(x, y, name=None):
    return _core.named_in_order(True, "add", name or "Add", _core.add, x, y)


def subtract(x, y, name=None):
    return _generated("sub", name or "Sub", _core.subtract, x, y)


def multiply(x, y, name=None):
    return _generated("mul", name or "Mul", _core.multiply, x, y)


def divide(x, y, name=None):
    return _named("truediv", name, _core.truediv, x, y)


def maximum(x, y, name=None):
    return _generated("Maximum", name, _core.maximum, x, y)


def minimum(x, y, name=None):
    return _generated("Minimum", name, _core.minimum, x, y)


def pow(x, y, name=None):  # noqa: A001
    return _generated("Pow", name, _core.tf_pow, x, y)


def truncatediv(x, y, name=None):
    return _generated("TruncateDiv", name, _core.truncatediv, x, y)


def truncatemod(x, y, name=None):
    return _generated("TruncateMod", name, _core.truncatemod, x, y)


def floordiv(x, y, name=None):
    return _generated("floordiv", name, _core.floordiv, x, y)


def equal(x, y, name=None):
    return _generated("Equal", name, _core.equal, x, y)


def not_equal(x, y, name=None):
    return _generated("NotEqual", name, _core.not_equal, x, y)


def less(x, y, name=None):
    return _generated("Less", name, _core.less, x, y)


def greater(x, y, name=None):
    return _generated("Greater", name, _core.greater, x, y)


def less_equal(x, y, name=None):
    return _generated("LessEqual", name, _core.less_equal, x, y)


def greater_equal(x, y, name=None):
    return _generated("GreaterEqual", name, _core.greater_equal, x, y)


def logical_and(x, y, name=None):
    return _named("LogicalAnd", name, _core.logical_and, x, y)


def logical_or(x, y, name=None):
    return _named("LogicalOr", name, _core.logical_or, x, y)


def logical_not(x, name=None):
    return _named("LogicalNot", name, _core.logical_not, x)


def slice(input_, begin, size, name=None):  # noqa: A001
    return _named("Slice", name, _core.slice, input_, begin, size)


def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    return _named("clip_by_value", name, _core.clip_by_value, t, clip_value_min, clip_value_max)


def add_n(inputs, name=None):
    if isinstance(inputs, Tensor) and not inputs._is_symbolic:
        inputs = list(inputs)
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("Inputs must be an iterable of at least one "
                         "Tensor/IndexedSlices with the same dtype and shape.")
    # math_ops.add_n converts an IndexedSlices to a tensor (UnsortedSegmentSum).
    inputs = [x._tfscope_dense() if hasattr(x, "_tfscope_dense") else x for x in inputs]
    return _named("AddN", name, _core.add_n, inputs)


def tile(input, multiples, name=None):  # noqa: A002
    return _named("Tile", name, _core.tile, input, multiples)


def broadcast_to(input, shape, name=None):  # noqa: A002
    return _named("BroadcastTo", name, _core.broadcast_to, input, shape)


def sign(x, name=None):
    return _named("Sign", name, _core.sign, x)


def floor(x, name=None):
    return _named("Floor", name, _core.floor, x)


def round(x, name=None):  # noqa: A001
    return _named("Round", name, _core.round, x)


def _is_complex_tensor(x):
    return isinstance(getattr(x, "dtype", None), DType) and x.dtype.is_complex


def abs(x, name=None):  # noqa: A001
    if _is_complex_tensor(x):  # math_ops.abs: ComplexAbs, in the scope "Abs"
        return _op("ComplexAbs", [x], {"Tout": x.dtype.real_dtype}, name or "Abs")
    return _op("Abs", [x], None, name)


def complex(real, imag, name=None):  # noqa: A001  (tf.complex)
    """math_ops.complex: Complex with Tout complex64 for float32 parts, complex128 for float64."""
    real = real if is_tensor(real) else convert_to_tensor(real)
    imag = imag if is_tensor(imag) else convert_to_tensor(imag)
    types = (real.dtype, imag.dtype)
    if types == (float64, float64):
        tout = complex128
    elif types == (float32, float32):
        tout = complex64
    else:
        raise TypeError("The `real` and `imag` components have incorrect types: {} {}. They must "
                        "be consistent, and one of {}".format(real.dtype.name, imag.dtype.name,
                                                              [float32, float64]))
    return _op("Complex", [real, imag], {"Tout": tout}, name or "Complex")


def _real(input, name=None):  # noqa: A002  (tf.math.real)
    input = input if is_tensor(input) else convert_to_tensor(input)
    if input.dtype.is_complex:
        return _op("Real", [input], {"Tout": input.dtype.real_dtype}, name or "Real")
    if input.dtype.is_floating or input.dtype.is_integer:
        return input
    raise TypeError("input must be a numeric tensor, but got tensor with dtype {}".format(
        input.dtype))


def _imag(input, name=None):  # noqa: A002  (tf.math.imag)
    input = input if is_tensor(input) else convert_to_tensor(input)
    if input.dtype.is_complex:
        return _op("Imag", [input], {"Tout": input.dtype.real_dtype}, name or "Imag")
    return zeros_like(input)


def _conj(x, name=None):  # tf.math.conj
    if is_tensor(x) and (x.dtype.is_floating or x.dtype.is_integer):
        return x
    x = x if is_tensor(x) else convert_to_tensor(x)
    if x.dtype.is_complex or x.dtype == variant:
        return _op("Conj", [x], None, name or "Conj")
    if x.dtype.is_floating or x.dtype.is_integer:
        return x
    raise TypeError("Expected numeric or variant tensor, got dtype %r" % x.dtype)


def _angle(input, name=None):  # noqa: A002  (tf.math.angle)
    input = input if is_tensor(input) else convert_to_tensor(input)
    if input.dtype.is_complex:
        return _op("Angle", [input], {"Tout": input.dtype.real_dtype}, name or "Angle")
    return where(input < 0, _np.pi * ones_like(input), zeros_like(input))


def square(x, name=None):
    return _op("Square", [x], None, name)


def sqrt(x, name=None):
    return _op("Sqrt", [x], None, name)


def exp(x, name=None):
    return _op("Exp", [x], None, name)


def tanh(x, name=None):
    return _op("Tanh", [x], None, name)


def negative(x, name=None):
    return _op("Neg", [x], None, name)


def sin(x, name=None):
    return _op("Sin", [x], None, name)


def cos(x, name=None):
    return _op("Cos", [x], None, name)


def tan(x, name=None):
    return _op("Tan", [x], None, name)


def sinh(x, name=None):
    return _op("Sinh", [x], None, name)


def cosh(x, name=None):
    return _op("Cosh", [x], None, name)


def asinh(x, name=None):
    return _op("Asinh", [x], None, name)


def acosh(x, name=None):
    return _op("Acosh", [x], None, name)


def sigmoid(x, name=None):
    return _op("Sigmoid", [x], None, name)


def _reduce(op):
    node = {"sum": "Sum", "mean": "Mean", "max": "Max", "min": "Min", "prod": "Prod", "any": "Any",
            "all": "All"}[op]

    def f(input_tensor, axis=None, keepdims=False, name=None):
        return _named(node, name, _core.reduce, op, input_tensor, axis, keepdims)
    f.__name__ = "reduce_" + op
    return f


reduce_sum = _reduce("sum")
reduce_mean = _reduce("mean")
reduce_max = _reduce("max")
reduce_min = _reduce("min")
reduce_prod = _reduce("prod")
reduce_any = _reduce("any")
reduce_all = _reduce("all")


def argmax(input, axis=None, output_type=int64, name=None):  # noqa: A002
    return _named("ArgMax", name, _core.argmax, input, 0 if axis is None else axis,
                  as_dtype(output_type))


def argmin(input, axis=None, output_type=int64, name=None):  # noqa: A002
    return _named("ArgMin", name, _core.argmin, input, 0 if axis is None else axis,
                  as_dtype(output_type))


class math:  # noqa: N801  (tf.math namespace)
    add, subtract, multiply, divide, maximum, minimum, pow = add, subtract, multiply, divide, maximum, minimum, pow
    reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod = reduce_sum, reduce_mean, reduce_max, reduce_min, reduce_prod
    abs, square, sqrt, exp, tanh, sigmoid, argmax = abs, square, sqrt, exp, tanh, sigmoid, argmax
    sin, cos, tan, sinh, cosh, asinh, acosh = sin, cos, tan, sinh, cosh, asinh, acosh
    equal, not_equal, less, greater = equal, not_equal, less, greater
    less_equal, greater_equal = less_equal, greater_equal
    logical_and, logical_or, logical_not = logical_and, logical_or, logical_not
    clip_by_value, add_n, sign, floor, round = clip_by_value, add_n, sign, floor, round
    reduce_any, reduce_all, argmin = reduce_any, reduce_all, argmin
    truncatediv, truncatemod, floordiv = truncatediv, truncatemod, floordiv

    truediv = divide
    real, imag, conj, angle = (staticmethod(_real), staticmethod(_imag), staticmethod(_conj),
                               staticmethod(_angle))

    @staticmethod
    def floormod(x, y, name=None):
        return _generated("FloorMod", name, _core.tf_floormod, x, y)

    mod = floormod

    @staticmethod
    def log(x, name=None):
        return _op("Log", [x], None, name)

    @staticmethod
    def erf(x, name=None):
        return _op("Erf", [x], None, name)

    @staticmethod
    def rsqrt(x, name=None):
        return _op("Rsqrt", [x], None, name)

    @staticmethod
    def erfc(x, name=None):
        return _op("Erfc", [x], None, name)

    @staticmethod
    def log1p(x, name=None):
        return _op("Log1p", [x], None, name)

    @staticmethod
    def expm1(x, name=None):
        return _op("Expm1", [x], None, name)

    @staticmethod
    def reciprocal(x, name=None):
        return _op("Reciprocal", [x], None, name)

    @staticmethod
    def ceil(x, name=None):
        return _op("Ceil", [x], None, name)

    @staticmethod
    def negative(x, name=None):
        return _op("Neg", [x], None, name)

    @staticmethod
    def softplus(features, name=None):
        return _named("Softplus", name, _core.softplus, features)


def _wrap_2d_function(inputs, compute_op, dim, name=None):
    """TF's nn_ops._wrap_2d_function: Softmax and LogSoftmax reduce the last dim, so another axis
    is swapped with the last one before and after, with the same ops TF builds."""
    inputs = convert_to_tensor(inputs)
    shape = inputs.shape
    if (dim == -1) or (dim == shape.ndims - 1):
        return compute_op(inputs, name)
    dim_val = dim
    if isinstance(dim, Tensor):
        dim_val = int(dim.numpy()) if _core.executing_eagerly() else None
    if dim_val is not None and not -shape.ndims <= dim_val < shape.ndims:
        raise errors.InvalidArgumentError(None, None,
            f"`dim` must be in the range [{-shape.ndims}, {shape.ndims}) where "
            f"{shape.ndims} is the number of dimensions in the input. "
            f"Received: dim={dim_val}")
    ndims = rank(inputs)
    if not isinstance(dim, Tensor):
        if dim < 0:
            dim += ndims
    else:
        dim = where(less(dim, 0), dim + ndims, dim)
    input_rank = rank(inputs)
    dim_axis = dim % shape.ndims

    def swap_axis(t, dim_index, last_index, name=None):
        return transpose(t, concat([range(dim_index), [last_index],
                                    range(dim_index + 1, last_index), [dim_index]], 0),
                         name=name or "transpose")

    inputs = swap_axis(inputs, dim_axis, subtract(input_rank, 1))
    output = swap_axis(compute_op(inputs, None), dim_axis, subtract(input_rank, 1), name)
    # TF sets the static shape a computed perm leaves unknown.
    return _core.set_static_shape(output, [-1 if d is None else d for d in shape])


class nn:  # noqa: N801  (tf.nn namespace)
    @staticmethod
    def relu(features, name=None):
        return _op("Relu", [features], None, name)

    @staticmethod
    def relu6(features, name=None):
        return _op("Relu6", [features], None, name)

    @staticmethod
    def softmax(logits, axis=None, name=None):
        return _wrap_2d_function(logits, lambda t, n: _op("Softmax", [t], None, n),
                                 -1 if axis is None else axis, name)

    @staticmethod
    def log_softmax(logits, axis=None, name=None):
        return _wrap_2d_function(logits, lambda t, n: _op("LogSoftmax", [t], None, n),
                                 -1 if axis is None else axis, name)

    sigmoid = staticmethod(sigmoid)
    tanh = staticmethod(tanh)

    @staticmethod
    def leaky_relu(features, alpha=0.2, name=None):
        if isinstance(alpha, _np.ndarray):
            alpha = alpha.item()
        # _MakeFloat: any real number (bool included), nothing else.
        if not isinstance(alpha, (_numbers.Real, _np.integer, _np.floating)):
            raise TypeError(f"Expected float for argument 'alpha' not {alpha!r}.")
        return _named("LeakyRelu", name, _core.leaky_relu, features, float(alpha))

    @staticmethod
    def elu(features, name=None):
        return _named("Elu", name, _core.elu, features)

    @staticmethod
    def selu(features, name=None):
        return _named("Selu", name, _core.selu, features)

    softplus = staticmethod(math.softplus)

    @staticmethod
    def gelu(features, approximate=False, name=None):
        return _named("Gelu", name, _core.gelu, features, approximate)

    @staticmethod
    def bias_add(value, bias, data_format=None, name=None):
        return _named("BiasAdd", name, _core.bias_add, value, bias)


# ---- tf.print ----

def _format_for_print(value, top, tensors):
    if isinstance(value, (Tensor, Variable)):
        tensors.append(value if isinstance(value, Tensor) else value.value())
        return "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_format_for_print(v, False, tensors) for v in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(_format_for_print(v, False, tensors) for v in value)
        return "(" + inner + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(repr(k) + ": " + _format_for_print(value[k], False, tensors)
                               for k in sorted(value)) + "}"
    if isinstance(value, _np.ndarray):
        tensors.append(constant(value))
        return "{}"
    return str(value) if top else repr(value)


_PRINT_KWARGS = ("output_stream", "summarize", "sep", "end", "name")


def print(*inputs, **kwargs):  # noqa: A001
    """tf.print: formats tensors when it runs (every call of a traced function)."""
    unknown = {k: v for k, v in kwargs.items() if k not in _PRINT_KWARGS}
    if unknown:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % (unknown,))
    output_stream = kwargs.get("output_stream", _sys.stderr)
    summarize = kwargs.get("summarize", 3)
    sep = kwargs.get("sep", " ")
    end = kwargs.get("end", "\n")
    tensors = []
    template = sep.join(_format_for_print(v, True, tensors) for v in inputs)
    if output_stream is _sys.stdout:
        stream = "stdout"
    elif output_stream is _sys.stderr:
        stream = "stderr"
    elif isinstance(output_stream, str):
        stream = output_stream
    else:
        stream = "stderr"
    _core.print_template(template, tensors, stream, end, summarize if summarize is not None else -1)


# ---- control flow ----

def _flatten(x):
    # Control flow's nests: a tf.TensorArray stands for its tensors (TF's flow).
    return nest.flatten(x, expand_composites=True)


def _pack_like(structure, flat):
    return nest.pack_sequence_as(structure, flat, expand_composites=True)


def cond(pred, true_fn=None, false_fn=None, name=None):
    if isinstance(pred, builtins_bool):
        raise TypeError("pred must not be a Python bool", pred)
    if executing_eagerly() and not (isinstance(pred, Tensor) and pred._is_symbolic):
        return true_fn() if builtins_bool(pred) else false_fn()
    structure = {}

    def wrap(fn, key):
        def run():
            r = fn()
            structure.setdefault(key, r)
            return _flatten(r)
        return run

    flat = _core.cond(pred, wrap(true_fn, "t"), wrap(false_fn, "f"), name or "")
    return _pack_like(structure["t"], flat)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,  # noqa: F811
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    structure = loop_vars
    flat = _flatten(loop_vars)
    if executing_eagerly() and not any(isinstance(v, Tensor) and v._is_symbolic for v in flat):
        # TF converts the initial loop variables to tensors in eager mode too.
        if isinstance(loop_vars, (list, tuple)):
            vars_ = type(loop_vars)(v if isinstance(v, (Tensor, Variable)) or isinstance(
                v, (list, tuple, dict)) or hasattr(type(v), "_tfscope_components")
                else convert_to_tensor(v) for v in loop_vars)
        else:
            vars_ = loop_vars
        n = 0
        while (maximum_iterations is None or n < maximum_iterations) and builtins_bool(cond(*vars_)):
            vars_ = body(*vars_)
            if not isinstance(vars_, (list, tuple)):
                vars_ = [vars_]
            n += 1
        return vars_ if isinstance(loop_vars, (list, tuple)) and len(loop_vars) != 1 or not isinstance(loop_vars, (list, tuple)) else type(loop_vars)(vars_)

    def c(vs):
        return cond(*_pack_like(structure, vs))

    def b(vs):
        r = body(*_pack_like(structure, vs))
        if not isinstance(r, (list, tuple)):
            r = [r]
        return _flatten(r)

    flat_inv = None
    if shape_invariants is not None:
        # Same structure as loop_vars; each leaf a TensorShape (or None: keep the var's shape).
        inv = shape_invariants if isinstance(loop_vars, (list, tuple)) else [shape_invariants]
        vs = loop_vars if isinstance(loop_vars, (list, tuple)) else [loop_vars]
        flat_inv = []
        for var, i in zip(vs, inv):
            n = len(_flatten(var))
            leaves = [i] if n == 1 and not isinstance(i, (list, tuple, dict)) else _flatten(i)
            flat_inv.extend(leaves)
    out = _core.while_loop(c, b, flat, -1 if maximum_iterations is None else maximum_iterations,
                           flat_inv)
    return _pack_like(structure, out)


# ---- random ----

class random:  # noqa: N801
    # TF's seed rules (global seed, op seed, the eager op-seed sequence, per-graph counters) and
    # the stateful RandomUniform/RandomStandardNormal kernels are the engine's.
    @staticmethod
    def set_seed(seed):
        _core.set_random_seed(None if seed is None else int(seed))

    @staticmethod
    def uniform(shape, minval=0, maxval=None, dtype=float32, seed=None, name=None):
        return _core.random_uniform(list(shape), minval, maxval, as_dtype(dtype),
                                    None if seed is None else int(seed))

    @staticmethod
    def normal(shape, mean=0.0, stddev=1.0, dtype=float32, seed=None, name=None):
        return _core.random_normal(list(shape), mean, stddev, as_dtype(dtype),
                                   None if seed is None else int(seed))


# ---- tf.Module ----

class Module:
    """tf.Module: tracks the variables reachable from its attributes."""

    def __init__(self, name=None):
        self._name = _name_scope.module_name(type(self), name)
        with name_scope(self._name) as scope:
            self._name_scope = name_scope(scope)

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """The scope this module's variables and `with_name_scope` methods are named in."""
        return self._name_scope

    @staticmethod
    def with_name_scope(method):
        """Decorates a method so that it runs in the module's name scope."""
        @_functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        method_with_name_scope._tfscope_module_method = method  # AutoGraph converts `method`
        return method_with_name_scope

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if "_tfscope_deferred_restores" in self.__dict__:  # a restored checkpoint waits for it
            _checkpoint.restore_deferred(self, name, value)

    def _walk(self, seen):
        for key in sorted(vars(self)):
            if key == "_descriptor_cache" or key.startswith("_tfscope_"):
                continue
            yield from _walk_value(getattr(self, key), seen)

    @property
    def variables(self):
        return tuple(v for v in self._walk(set()) if isinstance(v, Variable))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    @property
    def submodules(self):
        return tuple(m for m in self._walk_modules(set()))

    def _walk_modules(self, seen):
        for key in sorted(vars(self)):
            v = getattr(self, key)
            if isinstance(v, Module) and id(v) not in seen:
                seen.add(id(v))
                yield v
                yield from v._walk_modules(seen)


def _walk_value(v, seen):
    if id(v) in seen:
        return
    if isinstance(v, Variable):
        seen.add(id(v))
        yield v
    elif isinstance(v, Module):
        seen.add(id(v))
        yield from v._walk(seen)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _walk_value(x, seen)
    elif isinstance(v, dict):
        for k in sorted(v, key=str):
            yield from _walk_value(v[k], seen)


# ---- tfscope's extras ----

class RetraceProbe:
    """Counts the real traces of a Function from the moment it is attached, and says why."""

    def __init__(self, fn):
        self._fn = fn
        self._start_calls, self._start_traces = fn._core.ledger_counts()

    @property
    def traces(self):
        return self._fn._core.ledger_counts()[1] - self._start_traces

    @property
    def calls(self):
        return self._fn._core.ledger_counts()[0] - self._start_calls

    def report(self):
        return self._fn.ledger()


def report(concrete_fn, format="text"):  # noqa: A002
    """GraphReport of a ConcreteFunction: 'text', 'json' or 'dot'."""
    core = concrete_fn._core
    formats = {"text": core.report_text, "json": core.report_json, "dot": core.report_dot}
    if format not in formats:
        raise ValueError("[report] unknown format %r; the formats are 'text', 'json' and 'dot'"
                         % (format,))
    return formats[format]()


def stabilize(fn, input_signature):
    """The same Python function as a Function with an explicit input signature."""
    return Function(fn.python_function, input_signature=list(input_signature))


from . import saved_model  # noqa: E402  (tf.saved_model.save/load; tfscope/saved_model.py)
from . import lite  # noqa: E402  (tf.lite.TFLiteConverter, Interpreter; tfscope/lite.py)
from . import data  # noqa: E402  (tf.data; tfscope/data/)
from . import io  # noqa: E402  (tf.io.TFRecordWriter, TFRecordOptions; tfscope/io.py)
from . import train  # noqa: E402  (tf.train.Example protos; tfscope/train.py)
from . import sparse  # noqa: E402  (tf.sparse.SparseTensor, to_dense; tfscope/sparse.py)

from . import watch  # noqa: E402  (tfscope.watch(): imports TensorFlow only when a program does)

# Normalization and statistics (tfscope/_stats.py), in TF's namespaces.
from ._stats import argsort, cumsum, sort, stop_gradient  # noqa: E402
from . import _stats  # noqa: E402
for _name in ("squared_difference", "reduce_variance", "reduce_std", "cumsum", "top_k"):
    setattr(math, _name, staticmethod(getattr(_stats, _name)))
for _name in ("moments", "batch_normalization", "l2_normalize", "embedding_lookup", "top_k"):
    setattr(nn, _name, staticmethod(getattr(_stats, _name)))
math.l2_normalize = staticmethod(_stats.l2_normalize)
del _name

# Convolution and pooling (tfscope/_nn_conv.py), in tf.nn.
from ._nn_conv import install as _install_nn_conv, einsum  # noqa: E402
_install_nn_conv(nn)

# Splitting, indexing and padding (tfscope/_index.py).
from ._index import (eye, gather_nd, one_hot, pad, reverse, scatter_nd, sequence_mask,  # noqa: E402
                     split, tensor_scatter_nd_update)
from . import _index  # noqa: E402
from ._tape import GradientTape, UnconnectedGradients, gradients  # noqa: E402  (tfscope/_tape.py)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):  # noqa: A002
    """tf.norm (linalg_ops.norm): vector norms and the Frobenius, 1 and inf matrix norms, built
    from TF's ops in a "norm" scope (the matrix 2-norm needs Svd, which tfscope has not)."""
    keepdims = False if keepdims is None else keepdims
    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not isinstance(axis[0], int) or not isinstance(axis[1], int) or axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 "
                             f"unique integers, got {axis}")
        supported_matrix_norms = ["euclidean", "fro", 1, 2, _np.inf]
        if ord not in supported_matrix_norms:
            raise ValueError(f"'ord' must be a supported matrix norm in "
                             f"{supported_matrix_norms}, got {ord}")
    else:
        if not (isinstance(axis, int) or axis is None):
            raise ValueError("'axis' must be None, an integer, or a "
                             f"tuple of 2 unique integers, got {axis}")
        supported_vector_norms = ["euclidean", 1, 2, _np.inf]
        if (not _np.isreal(ord) or ord <= 0) and ord not in supported_vector_norms:
            raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
        if axis is not None:
            axis = (axis,)
    with name_scope(name or "norm"):
        tensor = convert_to_tensor(tensor)
        if ord in ["fro", "euclidean", 2, 2.0]:
            if is_matrix_norm and ord in [2, 2.0]:
                raise NotImplementedError("[ops] tf.norm: the matrix 2-norm (ord=2 over two axes) "
                                          "needs Svd, which tfscope does not have yet")
            result = sqrt(reduce_sum(tensor * _conj(tensor), axis, keepdims=True))
        else:
            result = abs(tensor)
            if ord == 1:
                result = reduce_sum(result, None if axis is None else axis[0], keepdims=True)
                if is_matrix_norm:
                    result = reduce_max(result, axis[-1], keepdims=True)
            elif ord == _np.inf:
                if is_matrix_norm:
                    result = reduce_sum(result, axis[1], keepdims=True)
                result = reduce_max(result, None if axis is None else axis[0], keepdims=True)
            else:
                result = pow(reduce_sum(pow(result, ord), axis, keepdims=True), 1.0 / ord)
        if not keepdims:
            result = squeeze(result, axis)
        return result


class linalg:  # noqa: N801  (tf.linalg namespace)
    matmul, eye, matvec = matmul, eye, staticmethod(_index.matvec)
    l2_normalize = staticmethod(_stats.l2_normalize)
    norm = staticmethod(norm)


from . import _losses  # noqa: E402,F401  (tf.nn's losses, clipping; tfscope/_losses.py)

from ._tensor_array import TensorArray  # noqa: E402
from ._raw_ops import raw_ops  # noqa: E402
from ._checks import Assert, debugging, ensure_shape  # noqa: E402
from ._checks import assert_equal, assert_greater, assert_less, assert_rank  # noqa: E402
from ._py_func import numpy_function, py_function  # noqa: E402
from ._strings import strings  # noqa: E402
from ._ragged import RaggedTensor, RaggedTensorSpec, ragged  # noqa: E402  (tfscope/_ragged.py)
from . import _ragged  # noqa: E402
math.bincount = staticmethod(_ragged.bincount)
from ._indexed_slices import IndexedSlices  # noqa: E402  (tfscope/_indexed_slices.py)
from ._custom_gradient import custom_gradient  # noqa: E402  (tfscope/_custom_gradient.py)
from . import _indexed_slices  # noqa: E402
_indexed_slices.install(Variable)
math.unsorted_segment_sum = staticmethod(_indexed_slices.unsorted_segment_sum)
from ._linspace import broadcast_dynamic_shape, linspace  # noqa: E402
from . import summary  # noqa: E402  (tf.summary; tfscope/summary.py)
