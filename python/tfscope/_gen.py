"""ops.name_scope and ops.convert_to_tensor(..., name=) as TF's Python op wrappers use them.

Ops themselves are called through the one op call path, `_core.apply_op(op_type, inputs,
attrs, name)` (TF's generated wrapper: the op's scope opened, or re-entered for a name ending
in "/", host inputs converted inside it named after their argument, the op named after the
scope). Wrappers that build several ops open their scope here and pass it on as `name`:

    with name_scope(name, "TensorArrayV2") as scope:
        flow = _core.apply_op("TensorListReserve", [shape, size], attrs, scope)
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
