"""tf.custom_gradient as TF 2.21's custom_gradient.py builds it, over the tape's record_operation.

Eagerly: the function runs (its ops recorded as usual), each result goes through an Identity, and
the Identities are recorded as one op of the arguments (and of the variables the function read
that are not arguments) whose gradient is the user's grad_fn. In a graph: the results, arguments
and variables go through one IdentityN, recorded the same way (the results' own gradients None).
"""
import functools
import inspect

from . import _core, _nest


def _variables_read(f, args, kwargs):
    """Runs f, and returns its result and the variables it read (TF's VariableWatcher)."""
    watcher = _core.GradientTapeCore(False, True)
    watcher.enter()
    try:
        result = f(*args, **kwargs)
    finally:
        watcher.exit()
    return result, list(watcher.watched_variables())


def _takes_variables(grad_fn):
    spec = inspect.getfullargspec(grad_fn)
    return "variables" in spec.args or "variables" in spec.kwonlyargs or spec.varkw


def _uid(x):
    v = getattr(x, "_tfscope_variable", None)
    return None if v is None else v._uid


def _call_grad_fn(grad_fn, result_grads, variables):
    if variables:
        input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
        if len(variable_grads) != len(variables):
            raise ValueError("Must return gradient for each variable from "
                             "@custom_gradient grad_fn.")
        return input_grads, list(variable_grads)
    return grad_fn(*result_grads), []


def _result_grads(result, grads):
    packed = _nest.pack_sequence_as(result, list(grads))
    return packed if isinstance(packed, (list, tuple)) else [packed]


def _eager(f, args, kwargs):
    from . import convert_to_tensor, identity
    (result, grad_fn), watched = _variables_read(f, args, kwargs)
    flat_args = _nest.flatten(args)
    all_inputs = flat_args + _nest.flatten(kwargs)
    arg_uids = {_uid(x) for x in all_inputs} - {None}
    variables = [v for v in watched if _uid(v) not in arg_uids]
    if variables and not _takes_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', "
                        "since function uses variables: {}".format(variables))
    flat_result = [identity(x) for x in _nest.flatten(result)]
    inputs = [convert_to_tensor(x) for x in flat_args + variables]
    arg_count = len(flat_args)

    def backward(grads):
        input_grads, variable_grads = _call_grad_fn(grad_fn, _result_grads(result, grads),
                                                    variables)
        flat_grads = _nest.flatten(input_grads)
        if len(flat_grads) != arg_count:
            raise ValueError(f"custom_gradient function expected to return {arg_count} "
                             f"gradients, but returned {len(flat_grads)} instead.")
        return flat_grads + variable_grads

    _core.record_operation(flat_result, inputs, backward)
    return _nest.pack_sequence_as(result, flat_result)


def _graph(f, args, kwargs):
    from . import convert_to_tensor, identity
    if kwargs:
        raise ValueError("The custom_gradient decorator currently supports keywords "
                         "arguments only when eager execution is enabled.")
    args = _nest.map_structure(convert_to_tensor, args)
    (result, grad_fn), watched = _variables_read(f, args, {})
    flat_args = _nest.flatten(args)
    flat_result = _nest.flatten(result)
    n_result = len(flat_result)
    # _get_dependent_variables walks back from an Identity of each result (unused after): the
    # variables it finds there are VarHandleOps of this graph, which a tf.function never has.
    for x in flat_result:
        identity(x)
    variables = sorted(watched, key=lambda v: v.name)
    if variables and not _takes_variables(grad_fn):
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', "
                        "since function uses variables: {}".format(variables))
    originals = flat_result + flat_args + variables

    def backward(grads):
        input_grads, variable_grads = _call_grad_fn(
            grad_fn, _result_grads(result, grads[:n_result]), variables)
        return [None] * n_result + _nest.flatten(input_grads) + variable_grads

    outputs = _core.apply_op("IdentityN", [list(originals)], None, None)
    inputs = [convert_to_tensor(x) for x in originals]
    _core.record_operation(outputs, inputs, backward)
    return _nest.pack_sequence_as(result, list(outputs[:n_result]))


def custom_gradient(f=None):
    """tf.custom_gradient: f returns (result, grad_fn); grad_fn(*upstream[, variables=])
    returns the gradients of f's arguments (and of the variables it read)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if _core.executing_eagerly():
            return _eager(f, args, kwargs)
        return _graph(f, args, kwargs)

    # TF's decorator lives in TF's own modules, which AutoGraph calls as they are (f included).
    decorated.autograph_info__ = frozenset()
    return decorated
