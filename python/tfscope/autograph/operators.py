"""The AutoGraph runtime operators (TF 2.21's autograph/operators), over tfscope's core.

Converted code calls these through ``ag__``: a tensor condition stages If/StatelessIf, a tensor
loop test or a tensor iterable stages While/StatelessWhile, anything else runs as Python. The
checks and their error texts are TF's (operators/control_flow.py, variables.py, logical.py,
conditional_expressions.py, py_builtins.py).
"""
import builtins

import numpy as np

from .. import _core, _nest

_LIMITATIONS = ("https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
                "g3doc/reference/limitations.md#consistency-of-control-flow-types")

LEGAL_LOOP_TYPES = "Tensor, int, float, bool or a list, tuple or dict thereof"

PYTHON_MAX_ITERATIONS = 100000000


# ---- variables.py ----

class Undefined(object):
    """A symbol that may not be defined yet (reified so that nonlocal and loop state work)."""

    __slots__ = ("symbol_name",)

    def __init__(self, symbol_name):
        self.symbol_name = symbol_name

    def read(self):
        raise UnboundLocalError("'{}' is used before assignment".format(self.symbol_name))

    def __repr__(self):
        return self.symbol_name

    def __getattribute__(self, name):
        try:
            return object.__getattribute__(self, name)
        except AttributeError:
            return self

    def __getitem__(self, i):
        return self


class UndefinedReturnValue(object):
    """A return value that is undefined."""


def ld(v):
    if isinstance(v, Undefined):
        return v.read()
    return v


def ldu(load_v, name):
    try:
        return load_v()
    except (KeyError, AttributeError, NameError):
        return Undefined(name)


def _is_none_or_undef(value):
    return value is None or isinstance(value, (UndefinedReturnValue, Undefined))


# ---- tensors ----

def _variable_class():
    from .. import Variable
    return Variable


def is_tensor(x):
    """tensor_util.is_tf_type: tensors and variables."""
    return isinstance(x, _core.Tensor) or isinstance(x, _variable_class())


def _as_tensor(x):
    if isinstance(x, _core.Tensor):
        return x
    if isinstance(x, _variable_class()):
        return x.value()
    return _core.convert_to_tensor(x, None)


def _is_py_scalar(x):
    return isinstance(x, (bool, int, float, str, np.ndarray))


# ---- nest (tuples, lists, namedtuples, dicts by sorted key; everything else is a leaf) ----

def _is_nest(x):
    return isinstance(x, (list, tuple, dict)) and not isinstance(x, _core.Tensor)


def _flatten(x):
    # A composite (tf.TensorArray) stands for its tensors.
    return _nest.flatten(x, expand_composites=True)


def _pack_as(structure, flat):
    return _nest.pack_sequence_as(structure, flat, expand_composites=True)


def _structure_str(x):
    if isinstance(x, dict):
        return "{" + ", ".join("%r: %s" % (k, _structure_str(x[k])) for k in sorted(x)) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(_structure_str(y) for y in x) + "]"
    if isinstance(x, tuple):
        return "(" + ", ".join(_structure_str(y) for y in x) + ("," if len(x) == 1 else "") + ")"
    return "."


def _assert_same_structure(a, b):
    """nest.assert_same_structure, with TF's message shape."""

    def same(x, y):
        if _is_nest(x) != _is_nest(y):
            return False
        if not _is_nest(x):
            return True
        if type(x) is not type(y) and not (isinstance(x, list) and isinstance(y, list)):
            return False
        if isinstance(x, dict):
            return sorted(x) == sorted(y) and all(same(x[k], y[k]) for k in x)
        return len(x) == len(y) and all(same(p, q) for p, q in zip(x, y))

    if not same(a, b):
        raise ValueError(
            "The two structures don't have the same nested structure.\n\n"
            "First structure: %s\n\nSecond structure: %s" % (_structure_str(a), _structure_str(b)))


def _map_structure(fn, *structures):
    flats = [_flatten(s) for s in structures]
    return _pack_as(structures[0], [fn(*xs) for xs in zip(*flats)])


# ---- tf.cond / tf.while_loop over nests (what cond_v2 / while_v2 get from control_flow.py) ----

def _branch_output(x, fn):
    """func_graph's conversion of a traced function's return value."""
    try:
        return _as_tensor(x)
    except (ValueError, TypeError):
        raise TypeError(
            "To be compatible with tf.function, Python functions must return zero or more Tensors "
            "or ExtensionTypes or None values; in compilation of %s, found return value of type "
            "%s, which is not a Tensor or ExtensionType." % (str(fn), type(x).__name__)) from None


def _tf_cond(pred, true_fn, false_fn):
    structure = {}

    def wrap(fn, key):
        def run():
            r = fn()
            structure[key] = r
            # cond_v2 lets a branch return None; the else branch's checks then report it, so a
            # None from the main branch must not stop the else branch from being traced.
            return [_core.convert_to_tensor(0, None) if x is None else _branch_output(x, fn)
                    for x in _flatten(r)]
        return run

    flat = _core.cond(pred, wrap(true_fn, "t"), wrap(false_fn, "f"), "")
    if any(x is None for x in _flatten(structure["t"])):
        raise ValueError("true_fn and false_fn must return Tensors, got None")
    return _pack_as(structure["t"], flat)


def _tf_while_loop(test, body, init_vars, maximum_iterations=None, shape_invariants=None):
    def c(flat):
        return _as_tensor(test(*_pack_as(init_vars, flat)))

    def b(flat):
        return [_as_tensor(x) for x in _flatten(body(*_pack_as(init_vars, flat)))]

    flat = [_as_tensor(x) for x in _flatten(init_vars)]
    max_iter = -1 if maximum_iterations is None else int(maximum_iterations)
    flat_inv = None
    if shape_invariants is not None:
        # One entry per flattened loop variable: a variable without an invariant keeps its shape.
        flat_inv = []
        for var, inv in zip(init_vars, shape_invariants):
            n = len(_flatten(var))
            flat_inv.extend(_flatten(inv) if inv is not None else [None] * n)
    return _pack_as(init_vars, _core.while_loop(c, b, flat, max_iter, flat_inv))


# ---- logical.py / conditional_expressions.py ----

def not_(a):
    if is_tensor(a):
        return _core.logical_not(_as_tensor(a))
    return not a


def and_(a, b):
    a_val = a()
    if is_tensor(a_val):
        return _tf_cond(a_val, b, lambda: a_val)
    return a_val and b()


def or_(a, b):
    a_val = a()
    if is_tensor(a_val):
        return _tf_cond(a_val, lambda: a_val, b)
    return a_val or b()


def eq(a, b):
    if is_tensor(a) or is_tensor(b):
        return _core.equal(a, b)
    return a == b


def not_eq(a, b):
    return not_(eq(a, b))


def if_exp(cond, if_true, if_false, expr_repr):
    if is_tensor(cond):
        true_val, false_val = [], []

        def true_fn():
            true_val.append(if_true())
            if true_val and false_val:
                verify_single_cond_var(expr_repr, true_val[0], false_val[0])
            return true_val[0]

        def false_fn():
            false_val.append(if_false())
            if true_val and false_val:
                verify_single_cond_var(expr_repr, true_val[0], false_val[0])
            return false_val[0]

        return _tf_cond(cond, true_fn, false_fn)
    return if_true() if cond else if_false()


# ---- checks (control_flow.py) ----

def _verify_tf_condition(cond, tag):
    extra_hint = "to check for None, use `is not None`"
    cond = _as_tensor(cond)
    if cond.dtype.name != "bool":
        raise ValueError("condition of {} expected to be `tf.bool` scalar, got {}"
                         "; to use as boolean Tensor, use `tf.cast`"
                         "; {}".format(tag, cond, extra_hint))
    dims = cond.shape.as_list() if cond.shape.rank is not None else None
    if dims is None:
        cond = _core.reshape(cond, [])
    elif len(dims) > 0:
        known = [d for d in dims if d is not None]
        if np.prod(known) > 1:
            raise ValueError("condition of {} expected to be `tf.bool` scalar, got {}"
                             "; {}".format(tag, cond, extra_hint))
        cond = _core.reshape(cond, [])
    return cond


def _shape_str(shape):
    return str(shape)


def _is_subshape(left, right):
    if right.rank is None:
        return True
    if left.rank != right.rank:
        return False
    for ldim, rdim in zip(left.as_list(), right.as_list()):
        if rdim is not None and ldim != rdim:
            return False
    return True


def verify_loop_init_vars(init_vars, symbol_names, first_iter_vars=None, extra_message=None):
    if not symbol_names:
        return
    if first_iter_vars is None:
        first_iter_vars = (None,) * len(symbol_names)
    for name, val, fi_val in zip(symbol_names, init_vars, first_iter_vars):
        if isinstance(val, UndefinedReturnValue):
            if fi_val:
                raise ValueError("the return value from a TensorFlow loop may only be a {}; got {}"
                                 .format(LEGAL_LOOP_TYPES, type(fi_val)))
            raise NotImplementedError(
                "a return statement cannot be placed inside this TensorFlow loop;"
                " this may happen if a return statement depends on a"
                " static Python condition such as a hyperparameter")
        error_msg = None
        if val is None:
            error_msg = "'{}' is not allowed to be None before the loop".format(name)
        elif isinstance(val, Undefined):
            error_msg = "'{}' must be defined before the loop".format(name)
            if extra_message:
                error_msg += "\n" + extra_message
        if error_msg is not None:
            raise ValueError(error_msg)


def _verify_single_loop_var(name, check_shape, init, entry, exit_, shape_invariant):
    if exit_ is None:
        raise ValueError("'{}' is None at the end of the iteration.".format(name))
    if _is_py_scalar(init):
        init = _as_tensor(init)
    if _is_py_scalar(entry):
        entry = _as_tensor(entry)
    if _is_py_scalar(exit_):
        exit_ = _as_tensor(exit_)
    if not is_tensor(entry) or not is_tensor(exit_):
        return
    if entry.dtype != exit_.dtype:
        raise TypeError("'{}' has dtype {} before the loop, but dtype {} after one iteration"
                        .format(name, entry.dtype.name, exit_.dtype.name))
    if check_shape:
        exit_shape = exit_.shape
        if shape_invariant is None:
            entry_shape = entry.shape
            if not _is_subshape(exit_shape, entry_shape):
                raise ValueError(
                    "'{}' has shape {} before the loop, but shape {} after one iteration. Use "
                    "tf.autograph.experimental.set_loop_options to set shape invariants."
                    .format(name, entry_shape, exit_shape))
        else:
            if not _is_subshape(init.shape, shape_invariant):
                raise ValueError("'{}' has shape {} before the loop, which does not conform with "
                                 "the shape invariant {}.".format(name, init.shape, shape_invariant))
            if not _is_subshape(exit_shape, shape_invariant):
                raise ValueError("'{}' has shape {} after one iteration, which does not conform "
                                 "with the shape invariant {}.".format(name, exit_shape,
                                                                       shape_invariant))


def verify_tf_loop_vars(init_vars, iter_entry_vars, iter_exit_vars, symbol_names, opts,
                        check_shapes=True):
    if check_shapes and "shape_invariants" in opts:
        shape_invariants = opts["shape_invariants"]
    else:
        shape_invariants = (None,) * len(iter_entry_vars)
    for i, name in enumerate(symbol_names):
        init, entry, exit_ = init_vars[i], iter_entry_vars[i], iter_exit_vars[i]
        invariant = shape_invariants[i]
        for a, b in ((init, entry), (entry, exit_)):
            try:
                _assert_same_structure(a, b)
            except (ValueError, TypeError) as e:
                raise TypeError("'{}' does not have the same nested structure after one"
                                " iteration.\n\n{}".format(name, e)) from e
        flat_inv = _flatten(invariant) if invariant is not None else [None] * len(_flatten(init))
        for args in zip(_flatten(init), _flatten(entry), _flatten(exit_), flat_inv):
            _verify_single_loop_var(name, check_shapes, *args)


def verify_single_cond_var(name, body_var, orelse_var):
    if body_var is None:
        raise ValueError("'{}' is None at the end of the main branch.".format(name))
    if orelse_var is None:
        raise ValueError("'{}' is None at the end of the else branch.".format(name))
    if _is_py_scalar(body_var):
        body_var = _as_tensor(body_var)
    if _is_py_scalar(orelse_var):
        orelse_var = _as_tensor(orelse_var)
    if not is_tensor(body_var) or not is_tensor(orelse_var):
        return
    if body_var.dtype != orelse_var.dtype:
        raise TypeError("'{}' has dtype {} in the main branch, but dtype {} in the else branch"
                        .format(name, body_var.dtype.name, orelse_var.dtype.name))


def _verify_tf_cond_branch_vars(vars_, symbol_names, branch_name):
    for name, var_ in zip(symbol_names, vars_):
        if isinstance(var_, Undefined):
            raise ValueError("'{}' must also be initialized in the {} branch".format(
                name, branch_name))
        if isinstance(var_, UndefinedReturnValue):
            raise ValueError("the {} branch must also have a return statement.".format(branch_name))


def _verify_tf_cond_vars(body_vars, orelse_vars, symbol_names):
    for name, body_var, orelse_var in zip(symbol_names, body_vars, orelse_vars):
        try:
            _assert_same_structure(body_var, orelse_var)
        except (ValueError, TypeError) as e:
            raise TypeError("'{}' must have the same nested structure in the main and else"
                            " branches:\n\n{}".format(name, str(e))) from e
        for b, o in zip(_flatten(body_var), _flatten(orelse_var)):
            verify_single_cond_var(name, b, o)


# ---- if ----

def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    if is_tensor(cond):
        _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts)
    else:
        body() if cond else orelse()


def _tf_if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts):
    cond = _verify_tf_condition(cond, "if statement")
    if not nouts:
        prev_get_state, prev_set_state = get_state, set_state
        get_state = lambda: (0,) + prev_get_state()  # noqa: E731 (TF's dummy output)
        set_state = lambda v: prev_set_state(v[1:])  # noqa: E731
        symbol_names += ("<unused dummy>",)
        nouts = 1
    init_vars = get_state()
    new_body_vars_ = [None]
    new_orelse_vars_ = [None]

    def aug_body():
        set_state(init_vars)
        body()
        new_body_vars = get_state()[:nouts]
        new_body_vars_[0] = new_body_vars
        _verify_tf_cond_branch_vars(new_body_vars, symbol_names, "main")
        if new_orelse_vars_[0] is not None:
            _verify_tf_cond_vars(new_body_vars, new_orelse_vars_[0], symbol_names)
        return new_body_vars

    def aug_orelse():
        set_state(init_vars)
        orelse()
        new_orelse_vars = get_state()[:nouts]
        new_orelse_vars_[0] = new_orelse_vars
        _verify_tf_cond_branch_vars(new_orelse_vars, symbol_names, "else")
        if new_body_vars_[0] is not None:
            _verify_tf_cond_vars(new_body_vars_[0], new_orelse_vars, symbol_names)
        return new_orelse_vars

    final_cond_vars = tuple(_tf_cond(cond, aug_body, aug_orelse))
    set_state(final_cond_vars + tuple(init_vars[nouts:]))


# ---- while ----

def while_stmt(test, body, get_state, set_state, symbol_names, opts):
    # The first test runs once in a throw-away graph to decide (its ops are discarded).
    init_test = _core.autograph_in_tmp_graph(test)
    if is_tensor(init_test):
        _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts)
        return
    if not init_test:
        return
    body()
    _py_while_stmt(test, body)


def _py_while_stmt(test, body):
    iterations = 1

    def guarded_test():
        result = test()
        if is_tensor(result):
            raise NotImplementedError(
                "The condition of while loop started as non-Tensor, then changed to Tensor. This "
                "may happen either because variables changed type, or when a break or return "
                "statement inside the loop depends on a Tensor condition. In both cases, changing "
                "to a TF loop should remove the error.\nSee " + _LIMITATIONS + " for more info.")
        return bool(result)

    while guarded_test():
        body()
        iterations += 1
        if iterations > PYTHON_MAX_ITERATIONS:
            raise ValueError("iteration limit exceeded")


def _placeholder_value(like, original=None):
    if like is None or isinstance(like, (Undefined, UndefinedReturnValue)):
        return original
    if isinstance(like, (int, float, bool)):
        return type(like)(0)
    if is_tensor(like):
        like = _as_tensor(like)
        if like.shape.rank is None:
            return _core.zeros([], like.dtype)
        return _core.zeros([0 if d is None else d for d in like.shape.as_list()], like.dtype)
    if isinstance(like, (list, tuple, dict)):
        return _pack_as(like, [_placeholder_value(v) for v in _flatten(like)])
    raise TypeError("Found an unsupported type '{}' while creating placeholder for {}. Supported "
                    "types include Tensor, int, float, bool, list, tuple or dict.".format(
                        type(like).__name__, like))


def _try_handling_undefineds(body, get_state, set_state, init_vars, nulls, symbol_names):
    """Stages one iteration in a throw-away graph to learn the types of undefined loop vars."""
    state = {"modified": False, "first": None}
    failure_message = None
    success = False

    def autocast_to_tensor(v):
        if isinstance(v, (int, float, bool, str, np.ndarray, np.generic)):
            t = _as_tensor(v)
            return _core.autograph_placeholder(t.dtype, t.shape)
        return v

    def stage():
        set_state(_map_structure(autocast_to_tensor, init_vars))
        state["modified"] = True
        body()
        state["first"] = get_state()

    try:
        _core.autograph_in_tmp_graph(stage)
        init_vars = tuple((_placeholder_value(iv, v) if n else v)
                          for v, n, iv in zip(init_vars, nulls, state["first"]))
        success = True
    except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
        failure_message = ("Note: AutoGraph tried to define it automatically, but ran into a"
                           " {}: {}".format(type(e).__name__, e))
    finally:
        if state["modified"]:
            set_state(init_vars)
    verify_loop_init_vars(init_vars, symbol_names, state["first"], extra_message=failure_message)
    return success, init_vars


def _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts):
    init_vars = get_state()
    nulls = tuple(_is_none_or_undef(v) for v in init_vars)
    if any(nulls):
        _, init_vars = _try_handling_undefineds(body, get_state, set_state, init_vars, nulls,
                                                symbol_names)

    def aug_test(*loop_vars):
        set_state(loop_vars)
        return _verify_tf_condition(test(), "while loop")

    def aug_body(*loop_vars):
        set_state(loop_vars)
        body()
        new_loop_vars = get_state()
        verify_tf_loop_vars(init_vars, loop_vars, new_loop_vars, symbol_names, opts)
        return new_loop_vars

    if "shape_invariants" in opts:
        opts["shape_invariants"] = _shape_invariants_mapping_to_positional_list(
            opts["shape_invariants"], init_vars)
    final_loop_vars = _tf_while_loop(aug_test, aug_body, tuple(init_vars),
                                     opts.get("maximum_iterations"),
                                     opts.get("shape_invariants"))
    set_state(tuple(final_loop_vars))


def _shape_invariants_mapping_to_positional_list(mapping, keys):
    """set_loop_options' (variable, shape) pairs, matched to the loop variables by identity."""
    by_id = {id(k): (k, v) for k, v in mapping}
    result = []
    for k in keys:
        map_key, map_val = by_id.get(id(k), (None, None))
        result.append(map_val if map_key is k else None)
    return tuple(result)


# ---- for ----

def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    from ..data import DatasetV2, OwnedIterator
    if isinstance(iter_, DatasetV2):  # a dataset loop: tfscope.data builds it, as TF
        from ..data._autograph import dataset_for_stmt as fn
    elif isinstance(iter_, OwnedIterator):  # a while loop over get_next_as_optional, as TF
        from ..data._autograph import iterator_for_stmt as fn
    elif is_tensor(iter_):
        if _core.autograph_op_type(_as_tensor(iter_)) == "Range":
            fn = _tf_range_for_stmt
        else:
            fn = _known_len_tf_for_stmt
    else:
        fn = _py_for_stmt
    fn(iter_, extra_test, body, get_state, set_state, symbol_names, opts)


def _py_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    if extra_test is not None:
        def guarded_extra_test():
            result = extra_test()
            if is_tensor(result):
                raise NotImplementedError(
                    "break and return statements which depend on a TF condition are not"
                    " supported in Python for loops. Did you intend to make it a TF"
                    " loop?\nSee " + _LIMITATIONS + " for more info.")
            return bool(result)

        if guarded_extra_test():
            for target in iter_:
                body(target)
                if not guarded_extra_test():
                    break
    else:
        for target in iter_:
            body(target)


def _get_range_len(start, limit, delta):
    """misc.get_range_len: TF computes it (for an XLA hint) even when it goes unused."""
    dist = _as_tensor(limit - start)
    unadjusted_len = dist // delta
    adjustment = _core.cast(
        _core.not_equal(dist % delta, _zeros_like(unadjusted_len)), dist.dtype)
    final_len = unadjusted_len + adjustment
    return _core.maximum(final_len, _zeros_like(final_len))


def _zeros_like(t):
    # array_ops.zeros_like: in a graph a Const named "zeros_like" when the shape is fully known.
    from .. import zeros_like
    return zeros_like(t)


def _cast_int32(t):
    from .. import int32
    return t if t.dtype == int32 else _core.cast(t, int32)


def _tf_range_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    start, limit, delta = _core.autograph_op_inputs(_as_tensor(iter_))
    iterate = start

    def _value_or(name, var, default):
        if name == opts["iterate_names"] and isinstance(var, Undefined):
            return default
        return var

    def aug_get_state():
        state_vars = tuple(_value_or(name, var, iterate)
                           for name, var in zip(symbol_names, get_state()))
        return (iterate,) + state_vars

    def aug_set_state(aug_loop_vars):
        nonlocal iterate
        iterate, *loop_vars = aug_loop_vars
        set_state(loop_vars)

    def aug_body():
        nonlocal iterate
        body(iterate)
        iterate += delta

    def aug_test():
        const_delta = _core.autograph_constant_value(delta)
        if const_delta is not None:
            main_test = iterate < limit if const_delta >= 0 else iterate > limit
        else:
            main_test = _core.logical_or(
                _core.logical_and(delta >= 0, iterate < limit),
                _core.logical_and(delta < 0, iterate > limit))
        if extra_test is not None:
            main_test = _tf_cond(main_test, extra_test, lambda: False)
        return main_test

    _cast_int32(_get_range_len(start, limit, delta))  # unused outside XLA, as in TF
    _tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state,
                   ("<internal iterate>",) + tuple(symbol_names), opts)


def _known_len_tf_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    # As TF: the tensor is unstacked into a TensorArray (TensorListReserve, TensorListFromTensor)
    # and each iteration reads one element (TensorListGetItem).
    iter_ = _as_tensor(iter_)
    n = len_(iter_)
    ta = _core.autograph_tensor_array_unstack(iter_, n)
    iterate_index = 0

    def aug_get_state():
        return (iterate_index,) + tuple(get_state())

    def aug_set_state(aug_loop_vars):
        nonlocal iterate_index
        iterate_index, *loop_vars = aug_loop_vars
        set_state(loop_vars)

    def aug_body():
        nonlocal iterate_index
        body(_core.autograph_tensor_array_read(ta, iterate_index))
        iterate_index += 1

    def aug_test():
        main_test = iterate_index < n
        if extra_test is not None:
            return _tf_cond(main_test, extra_test, lambda: False)
        return main_test

    _tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state,
                   ("<internal iterate>",) + tuple(symbol_names), opts)


# ---- py_builtins.py: builtins that converted_call overloads ----

class _Unspecified:
    pass


UNSPECIFIED = _Unspecified()


def len_(s):
    if is_tensor(s):
        # py_builtins._tf_tensor_len: a static length is a Python int; otherwise TF builds a Shape
        # to check the rank (unused afterwards) and a second one to slice the length from.
        s = _as_tensor(s)
        dims = s.shape.as_list() if s.shape.rank is not None else None
        if dims and dims[0] is not None:
            return dims[0]
        shape = _core.shape(s, None)
        if dims is not None and not dims:
            raise ValueError(
                "len requires a non-scalar tensor, got one of shape {}".format(shape))
        if dims is None:
            raise NotImplementedError(
                "tfscope: len() of a tensor of unknown rank (TF builds a tf.cond with an Assert "
                "on its rank; tfscope has no Assert op)")
        return _core.shape(s, None)[0]
    return len(s)


def range_(start_or_stop, stop=UNSPECIFIED, step=UNSPECIFIED):
    if any(is_tensor(s) for s in (start_or_stop, stop, step)):
        if step is not UNSPECIFIED:
            return _core.range(start_or_stop, stop, step, None)
        if stop is not UNSPECIFIED:
            stop = _core.maximum(start_or_stop, stop)
            return _core.range(start_or_stop, stop, 1, None)
        start_or_stop = _core.maximum(start_or_stop, 0)
        return _core.range(start_or_stop, None, 1, None)
    if step is not UNSPECIFIED:
        return range(start_or_stop, stop, step)
    if stop is not UNSPECIFIED:
        return range(start_or_stop, stop)
    return range(start_or_stop)


def abs_(x):
    if is_tensor(x):
        return _core.unary("abs", x)
    return builtins.abs(x)


def int_(x=0, base=UNSPECIFIED):
    if is_tensor(x):
        from .. import int32
        return _core.cast(x, int32)
    if base is UNSPECIFIED:
        return int(x)
    return int(x, base)


def float_(x=0):
    if is_tensor(x):
        from .. import float32
        return _core.cast(x, float32)
    return float(x)


BUILTIN_FUNCTIONS_MAP = {
    "abs": abs_,
    "float": float_,
    "int": int_,
    "len": len_,
    "range": range_,
}
_BUILTINS_BY_ID = {id(getattr(builtins, k)): v for k, v in BUILTIN_FUNCTIONS_MAP.items()}


def overload_of(f):
    return _BUILTINS_BY_ID.get(id(f), f)

