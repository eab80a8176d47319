"""File datasets: tf.data.TFRecordDataset and tf.data.TextLineDataset."""
import numpy as _np

from .. import _core
from .._types import as_dtype
from . import DatasetV2


def _filenames(filenames):
    if isinstance(filenames, _core.Tensor):
        t = filenames
    else:
        arr = _np.asarray(filenames)
        if arr.dtype.kind in "US":
            arr = arr.astype(object)
        if arr.dtype == object:
            t = _core.convert_to_tensor(arr, as_dtype("string"))
        else:  # Python ints are int32 here, as tf.convert_to_tensor makes them
            t = _core.convert_to_tensor(filenames, None)
    if t.dtype != as_dtype("string"):
        raise TypeError("The `filenames` argument must contain `tf.string` elements. Got `%r` "
                        "elements." % t.dtype)
    return t


def _compression(compression_type):
    return "" if compression_type is None else str(compression_type)


class TFRecordDatasetV2(DatasetV2):
    """The records of TFRecord files, as scalar strings."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        core = _core.DatasetCore.tfrecord(_filenames(filenames), _compression(compression_type),
                                          buffer_size)
        super().__init__(core)


class TextLineDatasetV2(DatasetV2):
    """The lines of text files, without their line ends."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        core = _core.DatasetCore.text_line(_filenames(filenames), _compression(compression_type),
                                           buffer_size)
        super().__init__(core)


TFRecordDataset = TFRecordDatasetV2
TextLineDataset = TextLineDatasetV2
