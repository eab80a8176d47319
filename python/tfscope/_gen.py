"""What TF's generated op wrappers (gen_*_ops) and ops.name_scope do, over _core.execute.

apply_op(op_type, inputs, attrs, name): in a graph, the op's name scope is opened (made unique
and taken), host inputs are converted inside it named after their argument
("TensorArrayV2Read/TensorListGetItem/index"), and the op gets the scope's exact name. Eagerly
nothing is named and the op runs now.
"""
import contextlib

from . import _core


@contextlib.contextmanager
def name_scope(name, default_name=None):
    """ops.name_scope(name, default_name): yields the scope ("TensorArrayV2/") or "" eagerly.

    A name ending in "/" is an existing scope, re-entered as it is."""
    base = name if name else default_name
    if not base or _core.executing_eagerly():
        yield ""
        return
    if base.endswith("/"):
        _core.enter_exact_scope(base[:-1])
        scope = base
    else:
        scope = _core.enter_name_scope(base, True) + "/"
    try:
        yield scope
    finally:
        _core.exit_name_scope()


def convert(value, dtype, name):
    """ops.convert_to_tensor(value, dtype, name=name) in the current scope."""
    return _core.convert_named(value, dtype, name)


class ListArg(list):
    """An input that is a list argument of the op (N tensors), not one tensor from a list."""


def _host_list(v):
    """A list or tuple operand holding a host value (TF's fast path takes lists of tensors)."""
    if not isinstance(v, (list, tuple)):
        return False
    return any(_host_list(x) or not isinstance(x, _core.Tensor) for x in v)


def apply_op(op_type, inputs, attrs=None, name=None):
    """inputs: (arg_name, value, dtype or None) per input; a list value is a list argument.

    Returns the op's outputs (a list)."""
    fallback = any(_host_list(v) for _, v, _ in inputs)
    with name_scope(name, op_type) as scope:
        tensors = []
        for arg, value, dtype in inputs:
            if isinstance(value, ListArg):
                # internal_convert_n_to_tensor: each element on its own, named "<arg>_<i>".
                tensors.append([v if isinstance(v, _core.Tensor)
                                else convert(v, dtype, "%s_%d" % (arg, i))
                                for i, v in enumerate(value)])
            elif isinstance(value, list) and value and isinstance(value[0], _core.Tensor):
                tensors.append([convert(v, dtype, arg) for v in value])
            else:
                tensors.append(convert(value, dtype, arg))
        return _core.execute(op_type, tensors, attrs or {}, scope, fallback)


def apply_op1(op_type, inputs, attrs=None, name=None):
    return apply_op(op_type, inputs, attrs, name)[0]
