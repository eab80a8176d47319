"""tf.train: reading checkpoints by name (load_checkpoint & co, _checkpoint.py), and its Example
protos as small Python classes over the engine's own Example format (src/data/proto, TF's field
numbers): Example, Features, Feature, BytesList, FloatList, Int64List, with
SerializeToString/FromString and TF's text format for one feature per list."""
import numpy as _np

from . import _core

_NONE, _BYTES, _FLOAT, _INT64 = 0, 1, 2, 3


class _List:
    _kind = None

    def __init__(self, value=()):
        self.value = [self._convert(v) for v in value]

    def __eq__(self, other):
        return type(self) is type(other) and self.value == other.value

    def _text(self, indent):
        return "".join("%svalue: %s\n" % (indent, self._format(v)) for v in self.value)


class BytesList(_List):
    _kind = _BYTES

    @staticmethod
    def _convert(v):
        if isinstance(v, str):
            return v.encode("utf-8")
        return bytes(v)

    @staticmethod
    def _format(v):
        out = []
        for b in v:
            c = chr(b)
            if c == '"' or c == "\\":
                out.append("\\" + c)
            elif 32 <= b < 127:
                out.append(c)
            else:
                out.append("\\%03o" % b)
        return '"%s"' % "".join(out)


class FloatList(_List):
    _kind = _FLOAT

    @staticmethod
    def _convert(v):
        return float(_np.float32(v))

    @staticmethod
    def _format(v):
        text = str(_np.float32(v))
        return text[:-2] if text.endswith(".0") else text


class Int64List(_List):
    _kind = _INT64

    @staticmethod
    def _convert(v):
        return int(v)

    @staticmethod
    def _format(v):
        return str(v)


class Feature:
    _FIELDS = ("bytes_list", "float_list", "int64_list")

    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        given = [(n, v) for n, v in zip(self._FIELDS, (bytes_list, float_list, int64_list))
                 if v is not None]
        if len(given) > 1:
            raise ValueError("Feature holds one of bytes_list, float_list, int64_list")
        self._kind, self._list = (given[0][0], given[0][1]) if given else (None, None)

    def WhichOneof(self, name):  # noqa: N802  (protobuf's name)
        return self._kind

    def __getattr__(self, name):
        if name in Feature._FIELDS:
            if self._kind == name:
                return self._list
            return {"bytes_list": BytesList, "float_list": FloatList, "int64_list": Int64List}[name]()
        raise AttributeError(name)

    def __eq__(self, other):
        return isinstance(other, Feature) and (self._kind, self._list) == (other._kind, other._list)

    def _flat(self):
        if self._kind is None:
            return _NONE, []
        return self._list._kind, list(self._list.value)

    def _text(self, indent):
        if self._kind is None:
            return ""
        inner = self._list._text(indent + "  ")
        return "%s%s {\n%s%s}\n" % (indent, self._kind, inner, indent)


class Features:
    def __init__(self, feature=None):
        self.feature = dict(feature or {})

    def __eq__(self, other):
        return isinstance(other, Features) and self.feature == other.feature


class Example:
    """tf.train.Example."""

    def __init__(self, features=None):
        self.features = features if features is not None else Features()

    def SerializeToString(self):  # noqa: N802
        flat = [(k,) + f._flat() for k, f in self.features.feature.items()]
        return _core.example_serialize(flat)

    @classmethod
    def FromString(cls, data):  # noqa: N802
        ex = cls()
        ex.ParseFromString(data)
        return ex

    def ParseFromString(self, data):  # noqa: N802
        feature = {}
        for key, kind, values in _core.example_parse(bytes(data)):
            if kind == _BYTES:
                feature[key] = Feature(bytes_list=BytesList(values))
            elif kind == _FLOAT:
                feature[key] = Feature(float_list=FloatList(values))
            elif kind == _INT64:
                feature[key] = Feature(int64_list=Int64List(values))
            else:
                feature[key] = Feature()
        self.features = Features(feature)

    def __eq__(self, other):
        return isinstance(other, Example) and self.features == other.features

    def __str__(self):
        if not self.features.feature:
            return ""
        body = ""
        for k, f in self.features.feature.items():
            body += '  feature {\n    key: "%s"\n    value {\n%s    }\n  }\n' % (k, f._text("      "))
        return "features {\n%s}\n" % body

    __repr__ = __str__


# Checkpoint reading by name (tfscope/_checkpoint.py).
from ._checkpoint import (Checkpoint, CheckpointManager, CheckpointReader,  # noqa: E402,F401
                          latest_checkpoint, list_variables, load_checkpoint, load_variable)
