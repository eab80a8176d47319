"""tf.debugging's assertions, tf.Assert and tf.ensure_shape as TF 2.21's check_ops,
control_flow_assert and numerics: eagerly a check now with TF's message; in a graph the static
check when both values are known (TF's InvalidArgumentError at trace time), else an Assert op
with TF's data and names ("assert_equal_1/Assert/Assert", its strings as ".../data_0").
"""
import numpy as np

from . import _core, errors
from ._gen import convert, name_scope
from ._types import TensorShape, as_dtype

_int32 = as_dtype("int32")
_string = as_dtype("string")


def _pkg():
    import tfscope
    return tfscope


def _constant_value(t):
    """tensor_util.constant_value: an eager tensor's or a Const's value, else None."""
    if not isinstance(t, _core.Tensor):
        return np.asarray(t)
    if not t._is_symbolic:
        return t.numpy()
    return _core.autograph_constant_value(t)


def _np_str(v):
    return str(v)


# ---- tf.Assert ----

def _summarize_eager(t, summarize):
    if summarize is None:
        summarize = 3
    elif summarize < 0:
        summarize = int(np.prod(t.shape.as_list()))
    arr = t.numpy()
    if t.shape.rank:
        flat = arr.reshape((-1,))
        lst = [str(x) for x in flat[:summarize]]
        if len(lst) < flat.size:
            lst.append("...")
    else:
        lst = [str(arr)] if summarize != 0 else []
    return ", ".join(lst)


def _assert_op(condition, data, summarize):
    """gen_logging_ops._assert(condition, data, summarize, name="Assert")."""
    with name_scope(None, "Assert") as scope:
        cond_t = convert(condition, as_dtype("bool"), "condition")
        tensors = [d if isinstance(d, _core.Tensor) else convert(d, None, "data_%d" % i)
                   for i, d in enumerate(data)]
        attrs = {"summarize": 3 if summarize is None else int(summarize)}
        return _core.apply_op("Assert", [cond_t, tensors], attrs, scope)


def Assert(condition, data, summarize=None, name=None):  # noqa: N802  (TF's name)
    if _core.executing_eagerly():
        if not condition:
            xs = [convert(d, None, "Const") for d in data]
            raise errors.InvalidArgumentError(None, None,
                "Expected '%s' to be true. Summarized data: %s"
                % (condition, "\n".join(_summarize_eager(x, summarize) for x in xs)))
        return None
    with name_scope(name, "Assert"):
        xs = [convert(d, None, "Const") for d in data]
        # TF runs an Assert on int32/string data directly and guards any other in a cond
        # ("AssertGuard"); tfscope runs it directly in both cases (known_differences.md).
        del xs
        return _assert_op(condition, data, summarize)


# ---- binary assertions ----

def _pretty_print(item, summarize):
    if isinstance(item, _core.Tensor):
        arr = item.numpy()
        if np.isscalar(arr) or arr.ndim == 0:
            return str(arr)
        flat = arr.reshape((-1,))
        lst = [str(x) for x in flat[:summarize]]
        if len(lst) < flat.size:
            lst.append("...")
        return str(lst)
    return str(item)


def _msg_data(sym, x, y, summarize, test):
    data = ["Condition x %s y did not hold." % sym]
    if summarize > 0:
        xs, ys, ok = x.numpy(), y.numpy(), test.numpy()
        if x.shape == y.shape and x.shape.as_list():
            mask = np.logical_not(ok)
            idx = np.argwhere(mask)
            n = min(summarize, idx.shape[0])
            data += ["Indices of first %d different values:" % n, idx[:n],
                     "Corresponding x values:", xs[mask].reshape((-1,))[:n],
                     "Corresponding y values:", ys[mask].reshape((-1,))[:n]]
        xf, yf = xs.reshape((-1,)), ys.reshape((-1,))
        nx, ny = min(xf.size, summarize), min(yf.size, summarize)
        data += ["First %d elements of x:" % nx, xf[:nx], "First %d elements of y:" % ny, yf[:ny]]
    return data


def _assert_static(condition, data):
    if not condition:
        parts = []
        for d in data:
            if isinstance(d, _core.Tensor):
                v = _constant_value(d)
                parts.append(str(v) if v is not None else str(d))
            else:
                parts.append(str(d))
        raise errors.InvalidArgumentError(None, None, "\n".join(parts))


def _binary_assert(sym, opname, op_name, static_func, x, y, data, summarize, message, name):
    tf = _pkg()
    op_func = getattr(_core, op_name)
    with name_scope(name, opname):
        x = convert(x, None, "x")
        y = convert(y, None, "y")
        if _core.executing_eagerly():
            test = op_func(x, y)
            if bool(tf.reduce_all(test)):
                return None
            if summarize is None:
                summarize = 3
            elif summarize < 0:
                summarize = int(1e9)
            if data is None:
                data = _msg_data(sym, x, y, summarize, test)
            if message is not None:
                data = [message] + list(data)
            raise errors.InvalidArgumentError(
                None, None, "\n".join(_pretty_print(d, summarize) for d in data))
        if data is None:
            data = ["Condition x %s y did not hold element-wise:" % sym,
                    "x (%s) = " % x.name, x, "y (%s) = " % y.name, y]
        if message is not None:
            data = [message] + list(data)
        condition = tf.reduce_all(op_func(x, y))
        xs, ys = _constant_value(x), _constant_value(y)
        if xs is not None and ys is not None:
            _assert_static(np.all(static_func(xs, ys)), data)
        return Assert(condition, data, summarize=summarize)


def _make_binary(sym, opname, op_name, static_func, short_circuit=False, summarize_first=False):
    def v1(x, y, data=None, summarize=None, message=None, name=None):
        if short_circuit:
            # assert_equal takes its own scope first (so the check is "assert_equal_1") and
            # returns at once for the same tensor.
            with name_scope(name, opname):
                if x is y:
                    return None if _core.executing_eagerly() else _noop("NoOp")
        return _binary_assert(sym, opname, op_name, static_func, x, y, data, summarize,
                              message, name)

    def v2(x, y, message=None, summarize=None, name=None):
        return v1(x, y, summarize=summarize, message=message, name=name)

    def v2_summarize_first(x, y, summarize=None, message=None, name=None):
        return v1(x, y, summarize=summarize, message=message, name=name)

    # TF's assert_none_equal alone takes summarize before message.
    f = v2_summarize_first if summarize_first else v2
    f.__name__ = opname
    return f


def _noop(name):
    if _core.executing_eagerly():
        return None
    return _core.apply_op("NoOp", [], None, name)


assert_equal = _make_binary("==", "assert_equal", "equal", np.equal, short_circuit=True)
assert_none_equal = _make_binary("!=", "assert_none_equal", "not_equal", np.not_equal,
                                 summarize_first=True)
assert_less = _make_binary("<", "assert_less", "less", np.less)
assert_less_equal = _make_binary("<=", "assert_less_equal", "less_equal", np.less_equal)
assert_greater = _make_binary(">", "assert_greater", "greater", np.greater)
assert_greater_equal = _make_binary(">=", "assert_greater_equal", "greater_equal",
                                    np.greater_equal)


# ---- rank ----

def assert_rank(x, rank, message=None, name=None):
    tf = _pkg()
    with name_scope(name, "assert_rank"):
        x = convert(x, None, "x")
        rank_t = convert(rank, None, "rank")
        prefix = "%s.  " % message if message else ""
        xname = "" if _core.executing_eagerly() else x.name
        data = [prefix, "Tensor %s must have rank" % xname, rank_t, "Received shape: ",
                tf.shape(x)]
        if rank_t.dtype != _int32:
            raise TypeError("%s must be of type %r; got %r"
                            % (rank_t.name if not _core.executing_eagerly() else "", _int32,
                               rank_t.dtype))
        with name_scope(None, "assert_type"):
            _noop("statically_determined_correct_type")
        rank_static = _constant_value(rank_t)
        if rank_static is not None:
            if np.ndim(rank_static) != 0:
                raise ValueError("Rank must be a scalar.")
            x_rank = x.shape.rank
            if x_rank is not None:
                if x_rank != int(rank_static):
                    raise ValueError("%sTensor %s must have rank %d.  Received rank %d, shape %s"
                                     % (prefix, xname, int(rank_static), x_rank, x.shape))
                return _noop("static_checks_determined_all_ok")
        return Assert(tf.equal(tf.rank(x), rank_t), data)


def _rank_type_check(rank_t):
    if rank_t.dtype != _int32:
        raise TypeError("%s must be of type %r; got %r"
                        % (rank_t.name if not _core.executing_eagerly() else "tensor", _int32,
                           rank_t.dtype))
    with name_scope(None, "assert_type"):
        _noop("statically_determined_correct_type")


def assert_rank_at_least(x, rank, message=None, name=None):
    tf = _pkg()
    with name_scope(name, "assert_rank_at_least"):
        x = convert(x, None, "x")
        rank_t = convert(rank, None, "rank")
        prefix = _message_prefix(message)
        xname = "" if _core.executing_eagerly() else x.name
        data = [prefix, "Tensor %s must have rank at least" % xname, rank_t, "Received shape: ",
                tf.shape(x)]
        _rank_type_check(rank_t)
        rank_static = _constant_value(rank_t)
        if rank_static is not None:
            if np.ndim(rank_static) != 0:
                raise ValueError("Rank must be a scalar.")
            x_rank = x.shape.rank
            if x_rank is not None:
                if not x_rank >= int(rank_static):
                    raise ValueError("%sTensor %s must have rank at least %d.  Received rank %d, "
                                     "shape %s" % (prefix, xname, int(rank_static), x_rank,
                                                   x.shape))
                return _noop("static_checks_determined_all_ok")
        return Assert(tf.greater_equal(tf.rank(x), rank_t), data)


def assert_rank_in(x, ranks, message=None, name=None):
    tf = _pkg()
    with name_scope(name, "assert_rank_in"):
        x = convert(x, None, "x")
        ranks = tuple(convert(r, None, "rank") for r in ranks)
        prefix = _message_prefix(message)
        xname = "" if _core.executing_eagerly() else x.name
        data = [prefix, "Tensor %s must have rank in" % xname] + list(ranks) + [
            "Received shape: ", tf.shape(x)]
        for r in ranks:
            _rank_type_check(r)
        statics = tuple(_constant_value(r) for r in ranks)
        if not any(r is None for r in statics):
            for r in statics:
                if np.ndim(r) != 0:
                    raise ValueError("Rank must be a scalar.")
            x_rank = x.shape.rank
            if x_rank is not None:
                if x_rank not in statics:
                    raise ValueError("%sTensor %s must have rank in %s.  Received rank %d, shape %s"
                                     % (prefix, xname, tuple(int(r) for r in statics), x_rank,
                                        x.shape))
                return _noop("static_checks_determined_all_ok")
        rank_x = tf.rank(x)
        condition = tf.equal(ranks[0], rank_x)
        for r in ranks[1:]:
            condition = tf.logical_or(condition, tf.equal(r, rank_x))
        return Assert(condition, data)


# ---- assert_shapes ----

def _dimension_sizes(x):
    """Each dim's static size, else its run-time size; a scalar is rank 1 of size 1."""
    tf = _pkg()
    dynamic_shape = tf.shape(x)
    rank = x.shape.rank
    if rank == 0:
        return (1,)
    if rank is not None:
        return [int(d) if d is not None else dynamic_shape[i]
                for i, d in enumerate(x.shape.as_list())]
    return tf.cond(tf.equal(tf.rank(x), 0), lambda: tf.constant([1]), lambda: dynamic_shape)


def _has_known_value(size):
    if size is None or isinstance(size, _core.Tensor):
        return False
    try:
        int(size)
    except (ValueError, TypeError):
        return False
    return True


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """check_ops.assert_shapes_v2: ranks and sizes, with symbols shared across tensors; static
    checks raise ValueError at once, the rest are Assert ops (graphs only)."""
    tf = _pkg()
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = _message_prefix(message)
    eager = _core.executing_eagerly()
    with name_scope(name, "assert_shapes"):
        constraints = [(convert(x, None, "Const"), s) for x, s in shapes if s is not None]

        def tensor_name(x):
            return ("shape=%s dtype=%s" % (x.shape, x.dtype.name)) if eager else x.name

        dim_sizes = []
        for tensor, symbolic in constraints:
            if not (hasattr(symbolic, "__iter__") or hasattr(symbolic, "__getitem__")):
                raise ValueError("%sTensor %s.  Specified shape must be an iterable.  An iterable "
                                 "has the attribute `__iter__` or `__getitem__`.  Received "
                                 "specified shape: %s" % (prefix, tensor_name(tensor), symbolic))
            sym = tuple(symbolic)
            innermost = False
            for i, symbol in enumerate(sym):
                if not (symbol is Ellipsis or (isinstance(symbol, str) and symbol == "*")):
                    continue
                if i != 0:
                    raise ValueError("%sTensor %s specified shape index %d.  Symbol `...` or `*` "
                                     "for a variable number of unspecified dimensions is only "
                                     "allowed as the first entry"
                                     % (prefix, tensor_name(tensor), i))
                innermost = True
            sizes = sym[1:] if innermost else sym
            dim_sizes.append((tensor, innermost, _dimension_sizes(tensor), sizes or (1,)))

        rank_assertions = []
        for x, innermost, _, sizes in dim_sizes:
            rank = len(sizes)
            if innermost:
                if rank in (0, 1):
                    continue
                rank_assertions.append(assert_rank_at_least(x, rank, message=message, name=name))
            elif rank in (0, 1):
                rank_assertions.append(assert_rank_in(x, [0, 1], message=message, name=name))
            else:
                rank_assertions.append(assert_rank(x, rank, message=message, name=name))

        size_assertions = []
        specified = {}
        for x, innermost, actual, sizes in dim_sizes:
            for i, symbol in enumerate(sizes):
                if symbol is None or (isinstance(symbol, str) and symbol == "."):
                    continue
                dim = i - len(sizes) if innermost else i
                known = _has_known_value(symbol)
                if not known and symbol not in specified:
                    specified[symbol] = (actual[dim], x, dim)
                    continue
                if known:
                    want, how = int(symbol), "Specified explicitly"
                else:
                    want, by, at = specified[symbol]
                    how = "Specified by tensor %s dimension %d" % (tensor_name(by), at)
                got = actual[dim]
                if _has_known_value(got) and _has_known_value(want):
                    if int(got) != int(want):
                        raise ValueError("%s%s.  Tensor %s dimension %s must have size %d.  "
                                         "Received size %d, shape %s"
                                         % (prefix, how, tensor_name(x), dim, int(want),
                                            int(got), x.shape))
                    continue
                condition = tf.equal(convert(got, None, "Const"), convert(want, None, "Const"))
                data_ = data
                if data is None:
                    data_ = [prefix, how, "Tensor %s dimension" % tensor_name(x), dim,
                             "must have size", want, "Received shape: ", tf.shape(x)]
                size_assertions.append(Assert(condition, data_, summarize=summarize))
        if eager:
            return None
        return _core.apply_op("NoOp", [], None, "group_deps")


# ---- scalar and type ----

def _message_prefix(message):
    return "%s.  " % message if message else ""


def assert_scalar(tensor, message=None, name=None):
    """check_ops.assert_scalar: a static check only (TF builds no op); returns the tensor."""
    with name_scope(name, "assert_scalar") as scope:
        tensor = convert(tensor, None, scope or "Const")
        rank = tensor.shape.rank
        if rank != 0:
            if _core.executing_eagerly():
                raise ValueError("%sExpected scalar shape, saw shape: %s."
                                 % (_message_prefix(message), tensor.shape))
            raise ValueError("%sExpected scalar shape for %s, saw shape: %s."
                             % (_message_prefix(message), tensor.name, tensor.shape))
        return tensor


def assert_type(tensor, tf_type, message=None, name=None):
    """check_ops.assert_type: TypeError at once for the wrong dtype, else a NoOp in a graph."""
    tf_type = as_dtype(tf_type)
    with name_scope(name, "assert_type"):
        tensor = convert(tensor, None, "tensor")
        if tensor.dtype != tf_type:
            tname = "tensor" if _core.executing_eagerly() else tensor.name
            raise TypeError("%s%s must be of type %r; got %r"
                            % (_message_prefix(message), tname, tf_type, tensor.dtype))
        return _noop("statically_determined_correct_type")


# ---- numerics and shapes ----

def check_numerics(tensor, message, name=None):
    return _core.apply_op("CheckNumerics", [tensor], {"message": message}, name)


def assert_all_finite(x, message, name=None):
    """numerics.verify_tensor_all_finite_v2: CheckNumerics, then x under a control dependency
    (tfscope: x itself, the CheckNumerics ordered by the function's automatic dependencies)."""
    with name_scope(name, "VerifyFinite"):
        x = convert(x, None, "x")
        check_numerics(x, message)
        if _core.executing_eagerly():
            return x
        return _core.apply_op("Identity", [x], None, "control_dependency")


def ensure_shape(x, shape, name=None):
    if not isinstance(shape, TensorShape):
        shape = TensorShape(shape)
    return _core.apply_op("EnsureShape", [x], {"shape": shape}, name)


class debugging:  # noqa: N801  (tf.debugging namespace)
    assert_equal = staticmethod(assert_equal)
    assert_none_equal = staticmethod(assert_none_equal)
    assert_less = staticmethod(assert_less)
    assert_less_equal = staticmethod(assert_less_equal)
    assert_greater = staticmethod(assert_greater)
    assert_greater_equal = staticmethod(assert_greater_equal)
    assert_rank = staticmethod(assert_rank)
    assert_rank_at_least = staticmethod(assert_rank_at_least)
    assert_rank_in = staticmethod(assert_rank_in)
    assert_shapes = staticmethod(assert_shapes)
    assert_scalar = staticmethod(assert_scalar)
    assert_type = staticmethod(assert_type)
    assert_all_finite = staticmethod(assert_all_finite)
    check_numerics = staticmethod(check_numerics)
    Assert = staticmethod(Assert)
