"""tf.py_function and tf.numpy_function as TF 2.21's script_ops: the function is registered
under a token ("pyfunc_N") and an EagerPyFunc / PyFunc op calls it each time it runs, eagerly and
in a tf.function (so a traced function's callback runs on every call, not once at trace)."""
import itertools
import traceback

import numpy as np

from . import _core, _nest
from ._gen import convert, name_scope
from ._types import as_dtype

_registry = {}
_ids = itertools.count()


def _convert_eager(value, dtype):
    """EagerFunc._convert: ops.convert_to_tensor(value, dtype=dtype)."""
    if isinstance(value, _core.Tensor):
        if value.dtype != dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (dtype.name, value.dtype.name, value))
        return value
    return _core.convert_to_tensor(value, dtype)


def _convert_numpy(value, dtype):
    """FuncRegistry._convert: np.asarray(value, dtype), then a tensor."""
    if dtype.name == "string":
        return _core.convert_to_tensor(np.asarray(value, dtype=object).tolist(), dtype)
    return _core.convert_to_tensor(np.asarray(value, dtype=dtype.as_numpy_dtype, order="C"),
                                   dtype)


def _error_text(e):
    frames = traceback.format_tb(e.__traceback__)[1:]  # drop _run's own frame
    return "%s: %s\nTraceback (most recent call last):\n\n%s\n%s: %s\n\n" % (
        type(e).__name__, e, "\n".join(frames), type(e).__name__, e)


def _run(token, eager, inputs, out_types):
    """Called by the op's kernel: the results as tensors, or the error text (a str)."""
    func = _registry[token]
    try:
        if eager:
            ret = func(*inputs)
        else:
            ret = func(*[t.numpy() for t in inputs])
        conv = _convert_eager if eager else _convert_numpy
        if isinstance(ret, (tuple, list)):
            return [conv(x, d) for x, d in zip(ret, out_types)]
        if ret is None:
            return []
        return [conv(ret, out_types[0])]
    except Exception as e:  # noqa: BLE001  (the op reports it as TF does)
        return _error_text(e)


def _internal_py_func(func, inp, Tout, op, name):  # noqa: N803  (TF's argument name)
    is_list = isinstance(Tout, (list, tuple))
    tout = [as_dtype(t) for t in Tout] if is_list else [as_dtype(Tout)]
    token = "pyfunc_%d" % next(_ids)
    _registry[token] = func
    attrs = {"token": token, "Tout": tout}
    if op == "EagerPyFunc":
        attrs["is_async"] = False
    with name_scope(name, op) as scope:
        ins = [x if isinstance(x, _core.Tensor) else convert(x, None, "input_%d" % i)
               for i, x in enumerate(inp or [])]
        outs = _core.apply_op(op, [ins], attrs, scope)
    return outs if is_list else outs[0]


def py_function(func=None, inp=None, Tout=None, name=None):  # noqa: N803
    return _internal_py_func(func, inp, Tout, "EagerPyFunc", name)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):  # noqa: N803
    if _core.executing_eagerly():
        # py_func_common eagerly: the function itself on arrays, its results converted as they
        # are (Tout unused), exceptions as raised.
        result = [x if x is None else _core.convert_to_tensor(x, None)
                  for x in _nest.flatten(func(*[np.array(x) for x in inp or []]))]
        return result[0] if len(result) == 1 else result
    return _internal_py_func(func, inp, Tout, "PyFunc" if stateful else "PyFuncStateless", name)
