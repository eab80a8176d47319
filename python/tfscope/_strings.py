"""tf.strings: lower, upper, strip, length, to_number, join over TF's string kernels (the
generated wrappers' names: "StringLower", "StringJoin", ...)."""
from ._gen import ListArg, apply_op1
from ._types import as_dtype

_string = as_dtype("string")


def _unary(op, input, name, attrs=None):  # noqa: A002  (TF's argument name)
    return apply_op1(op, [("input", input, _string)], attrs or {}, name)


class strings:  # noqa: N801  (tf.strings namespace)
    @staticmethod
    def lower(input, encoding="", name=None):  # noqa: A002
        return _unary("StringLower", input, name, {"encoding": encoding})

    @staticmethod
    def upper(input, encoding="", name=None):  # noqa: A002
        return _unary("StringUpper", input, name, {"encoding": encoding})

    @staticmethod
    def strip(input, name=None):  # noqa: A002
        return _unary("StringStrip", input, name)

    @staticmethod
    def length(input, name=None, unit="BYTE"):  # noqa: A002
        return _unary("StringLength", input, name, {"unit": unit})

    @staticmethod
    def to_number(string_tensor, out_type=as_dtype("float32"), name=None):
        return apply_op1("StringToNumber", [("string_tensor", string_tensor, _string)],
                         {"out_type": as_dtype(out_type)}, name)

    @staticmethod
    def join(inputs, separator="", name=None):
        return apply_op1("StringJoin", [("inputs", ListArg(inputs), _string)],
                         {"separator": separator}, name)

    @staticmethod
    def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
        return apply_op1("Substr", [("input", input, _string), ("pos", pos, None),
                                    ("len", len, None)], {"unit": unit}, name)
