"""tf.io: TFRecord writing (TFRecordWriter, TFRecordOptions)."""
from . import _core

_COMPRESSIONS = ("", "ZLIB", "GZIP")


class TFRecordOptions:
    """Options of a TFRecordWriter; tfscope honours compression_type (TF's zlib settings)."""

    compression_type_map = {"ZLIB": "ZLIB", "GZIP": "GZIP", "": ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        if compression_type is None:
            compression_type = ""
        if compression_type not in _COMPRESSIONS:
            raise ValueError('Not a valid compression_type: "{}"'.format(compression_type))
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return TFRecordOptions(options).compression_type


class TFRecordWriter:
    """Writes records to a TFRecord file, as tf.io.TFRecordWriter does."""

    def __init__(self, path, options=None):
        if not isinstance(options, TFRecordOptions):
            options = TFRecordOptions(options)
        self._core = _core.TFRecordWriterCore(str(path), options.compression_type)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def write(self, record):
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError("write(): incompatible function arguments. The following argument "
                            "types are supported:\n    1. (self, record: str) -> None\n\n"
                            "Invoked with: %r, %r" % (self, record))
        self._core.write(bytes(record))

    def flush(self):
        self._core.flush()

    def close(self):
        self._core.close()


# ---- tf.train.Example parsing ----

import collections as _collections  # noqa: E402

import numpy as _np  # noqa: E402


class FixedLenFeature(_collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])):
    """A dense feature of a fixed shape; required unless default_value is given."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(_collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length, parsed into a SparseTensor."""


def _parse(serialized, features):
    from . import sparse as _sparse
    from ._types import as_dtype

    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    if not isinstance(serialized, _core.Tensor):
        serialized = _core.convert_to_tensor(_np.asarray(serialized, dtype=object), as_dtype("string"))
    sparse_keys = sorted(k for k, f in features.items() if isinstance(f, VarLenFeature))
    dense_keys = sorted(k for k, f in features.items() if isinstance(f, FixedLenFeature))
    dense = []
    for k in dense_keys:
        f = features[k]
        dtype = as_dtype(f.dtype)
        default = None
        if f.default_value is not None:
            # TF reshapes the default to the feature's shape.
            value = _np.asarray(f.default_value, dtype=object if dtype == as_dtype("string") else None)
            default = _core.convert_to_tensor(_np.reshape(value, list(f.shape)).tolist(), dtype)
        dense.append((k, dtype, list(f.shape), default))
    sp, dn = _core.parse_example(serialized, [(k, as_dtype(features[k].dtype)) for k in sparse_keys],
                                 dense)
    out = {}
    for k, (i, v, s) in zip(sparse_keys, sp):
        out[k] = _sparse.SparseTensor(i, v, s)
    for k, t in zip(dense_keys, dn):
        out[k] = t
    return out


def parse_single_example(serialized, features, example_names=None, name=None):
    return _parse(serialized, features)


def parse_example(serialized, features, example_names=None, name=None):
    return _parse(serialized, features)


from ._strings import decode_raw  # noqa: E402,F401  (tf.io.decode_raw)
