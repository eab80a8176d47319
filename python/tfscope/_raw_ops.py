"""tf.raw_ops: every registered op by its TF name, called with keyword arguments as TF's
(inputs by their OpDef names, the rest attrs); an op with several outputs returns a namedtuple
named after it ("TensorListConcatV2(tensor=..., lengths=...)")."""
import collections

from . import _core
from ._gen import apply_op


class _RawOps:
    def __getattr__(self, op):
        try:
            ins, outs = _core.op_arg_names(op)
        except Exception:  # noqa: BLE001  (not an op: the attribute error Python gives)
            raise AttributeError("module 'tensorflow._api.v2.raw_ops' has no attribute '%s'"
                                 % op) from None

        def call(name=None, **kwargs):
            missing = [i for i in ins if i not in kwargs]
            if missing:
                raise TypeError("%s() missing required argument: '%s'" % (op, missing[0]))
            inputs = [(i, kwargs.pop(i), None) for i in ins]
            result = apply_op(op, inputs, kwargs, name)
            if not outs:  # TF returns None eagerly (the Operation in a graph)
                return None
            if len(outs) == 1 and len(result) == 1:
                return result[0]
            if len(outs) == len(result):
                return collections.namedtuple(op, outs)(*result)
            return result

        call.__name__ = op
        return call


raw_ops = _RawOps()
