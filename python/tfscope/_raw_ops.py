"""tf.raw_ops: every registered op by its TF name, called with keyword arguments as TF's
(inputs by TF's Python names, the rest attrs); an op with several outputs returns a namedtuple
named after it ("TensorListConcatV2(tensor=..., lengths=...)"), one without outputs None."""
import collections
import inspect

from . import _core

# Where TF's generated wrapper names an input otherwise than its OpDef (TF's api_def renames;
# python/tests/test_op_registry.py checks every registered op against TF 2.21's tf.raw_ops).
_REDUCTION = {"reduction_indices": "axis"}
_PYTHON_NAMES = {
    "All": _REDUCTION, "Any": _REDUCTION, "Max": _REDUCTION, "Mean": _REDUCTION,
    "Min": _REDUCTION, "Prod": _REDUCTION, "Sum": _REDUCTION,
    "ExpandDims": {"dim": "axis"},
    "Select": {"t": "x", "e": "y"},
    "Split": {"split_dim": "axis"},
    "SplitV": {"split_dim": "axis"},
    "Where": {"input": "condition"},
}


# The Python names TF's generated wrappers prefix with "_" (keywords and the builtins they
# would shadow), among the registered ops.
_RESERVED = {"abs", "all", "any", "assert", "complex", "if", "max", "min", "pow", "range", "slice",
             "sum", "while"}


def _snake(op):
    """The generated wrapper's function name ("AddV2" -> "add_v2", "Conv2D" -> "conv2d",
    "L2Loss" -> "l2_loss", "Sum" -> "_sum")."""
    out = []
    for i, c in enumerate(op):
        if c.isupper() and i > 0:
            prev, nxt = op[i - 1], op[i + 1 : i + 2]
            if prev.islower() or ((prev.isupper() or prev.isdigit()) and nxt.islower()):
                out.append("_")
        out.append(c.lower())
    name = "".join(out)
    return "_" + name if name in _RESERVED else name


def python_input_names(op):
    """The op's inputs as TF's wrapper (and tf.raw_ops) names them, in OpDef order."""
    ins, _ = _core.op_arg_names(op)
    renames = _PYTHON_NAMES.get(op, {})
    return [renames.get(i, i) for i in ins]


class _RawOps:
    def __getattr__(self, op):
        try:
            ins = python_input_names(op)
            _, outs = _core.op_arg_names(op)
        except Exception:  # noqa: BLE001  (not an op: the attribute error Python gives)
            raise AttributeError("module 'tensorflow._api.v2.raw_ops' has no attribute '%s'"
                                 % op) from None

        def call(*args, name=None, **kwargs):
            if args:  # TF lists the attrs it takes among the keys too
                raise TypeError("%s only takes keyword args (possible keys: %s). Please pass "
                                "these args as kwargs instead." % (_snake(op), ins + ["name"]))
            missing = [i for i in ins if i not in kwargs]
            if missing:
                raise TypeError("%s() missing required argument: '%s'" % (op, missing[0]))
            inputs = [kwargs.pop(i) for i in ins]
            result = _core.apply_op(op, inputs, kwargs, name)
            if len(outs) > 1:
                return collections.namedtuple(op, outs)(*result)
            return result  # None for no outputs (TF: None eagerly, the Operation in a graph)

        call.__name__ = _snake(op)
        kw = inspect.Parameter.KEYWORD_ONLY
        params = [inspect.Parameter(i, kw) for i in ins]
        params.append(inspect.Parameter("name", kw, default=None))
        params.append(inspect.Parameter("attrs", inspect.Parameter.VAR_KEYWORD))
        call.__signature__ = inspect.Signature(params)
        return call


raw_ops = _RawOps()
