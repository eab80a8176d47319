"""tf.data in tfscope: values worked out by hand or recorded from TF 2.21 (the conformance cases
data_* compare everything here and more against the live oracle)."""
import collections
import os

import numpy as np
import pytest

import tfscope as tf

D = tf.data.Dataset


def test_pipeline_values_and_specs():
    ds = D.from_tensor_slices(({"a": [1, 2, 3]}, [1.5, 2.5, 3.5])).batch(2)
    assert repr(ds.element_spec) == ("({'a': TensorSpec(shape=(None,), dtype=tf.int32, name=None)}, "
                                     "TensorSpec(shape=(None,), dtype=tf.float32, name=None))")
    out = list(ds.as_numpy_iterator())
    assert [x[0]["a"].tolist() for x in out] == [[1, 2], [3]]
    assert [x[1].tolist() for x in out] == [[1.5, 2.5], [3.5]]
    assert int(ds.cardinality()) == 2
    assert repr(D.range(3)) == "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"


def test_namedtuples_and_zip_keep_their_structure():
    P = collections.namedtuple("P", ["x", "y"])
    ds = D.zip((D.from_tensor_slices(P([1, 2], [3, 4])), D.range(5)))
    first = next(iter(ds))
    assert isinstance(first[0], P)
    assert (int(first[0].x), int(first[0].y), int(first[1])) == (1, 3, 0)
    assert len(ds) == 2


def test_cardinality_constants_and_len_errors():
    assert int(D.range(3).repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(D.range(3).repeat())
    assert int(D.range(10).batch(3, drop_remainder=True).cardinality()) == 3


def test_end_of_sequence():
    it = iter(D.range(1))
    assert int(next(it)) == 0
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(tf.errors.OutOfRangeError, match=r"End of sequence \[Op:IteratorGetNext\]"):
        it.get_next()


def test_shuffle_matches_tf():
    # TF 2.21: tf.data.Dataset.range(10).shuffle(4, seed=7) with no global seed.
    assert [int(x) for x in D.range(10).shuffle(4, seed=7)] == [0, 4, 2, 3, 5, 6, 1, 8, 7, 9]
    tf.random.set_seed(5)
    assert [int(x) for x in D.range(10).shuffle(10)] == [7, 5, 4, 1, 0, 9, 6, 3, 8, 2]
    assert [int(x) for x in D.range(10).shuffle(10)] == [1, 7, 4, 2, 3, 0, 8, 9, 5, 6]
    tf.random.set_seed(None)


def test_from_generator():
    def gen(n):
        for i in range(n):
            yield i, "s%d" % i
    ds = D.from_generator(gen, args=(3,), output_signature=(tf.TensorSpec([], tf.int64),
                                                            tf.TensorSpec([], tf.string)))
    assert list(ds.as_numpy_iterator()) == [(0, b"s0"), (1, b"s1"), (2, b"s2")]
    assert list(ds.as_numpy_iterator()) == [(0, b"s0"), (1, b"s1"), (2, b"s2")]  # runs again

    def first_line(gen, signature):
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            list(D.from_generator(gen, output_signature=signature))
        return str(e.value).split("\n")[0]

    # The first lines of TF 2.21's texts (TF's go on with the generator's traceback).
    prefix = ("{{function_node __wrapped__IteratorGetNext_output_types_%d_device_/job:localhost/"
              "replica:0/task:0/device:CPU:0}} TypeError: `generator` yielded an element ")
    assert first_line(lambda: iter([[1, 2, 3]]), tf.TensorSpec([2], tf.int32)) == prefix % 1 + (
        "of shape (3,) where an element of shape (2,) was expected.")
    assert first_line(lambda: iter(["a"]), tf.TensorSpec([], tf.int32)) == prefix % 1 + (
        "that could not be converted to the expected type. The expected type was int32, but the "
        "yielded element was a.")
    assert first_line(lambda: iter([1]), (tf.TensorSpec([], tf.int64), tf.TensorSpec([], tf.float32))) == (
        prefix % 2 + "that did not match the expected structure. The expected structure was "
        "(tf.int64, tf.float32), but the yielded element was 1.")


def test_tfrecord_roundtrip(tmp_path):
    p = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(p) as w:
        w.write(b"hello")
        w.write("text")
    # TF's bytes for the record b"hello".
    assert open(p, "rb").read()[:21].hex() == "0500000000000000eab2043e68656c6c6fbb1f1c19"
    assert [x.numpy() for x in tf.data.TFRecordDataset(p)] == [b"hello", b"text"]
    g = str(tmp_path / "r.gz")
    with tf.io.TFRecordWriter(g, "GZIP") as w:
        w.write(b"abc")
    assert [x.numpy() for x in tf.data.TFRecordDataset(g, "GZIP")] == [b"abc"]
    with pytest.raises(ValueError, match='Not a valid compression_type: "BAD"'):
        tf.io.TFRecordWriter(p, "BAD")


def test_corrupt_tfrecord_is_data_loss(tmp_path):
    p = str(tmp_path / "bad.tfrecord")
    with tf.io.TFRecordWriter(p) as w:
        w.write(b"hello")
    data = bytearray(open(p, "rb").read())
    data[12] ^= 1
    open(p, "wb").write(bytes(data))
    it = iter(tf.data.TFRecordDataset(p))
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 12"):
        next(it)
    with pytest.raises(StopIteration):  # TF moves on to the next file: there is none
        next(it)
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        next(iter(tf.data.TFRecordDataset(os.path.join(str(tmp_path), "missing"))))


def test_text_lines(tmp_path):
    p = tmp_path / "t.txt"
    p.write_bytes(b"a\r\nb\n\nlast")
    assert [x.numpy() for x in tf.data.TextLineDataset(str(p))] == [b"a", b"b", b"", b"last"]


def test_padded_batch():
    ds = D.from_tensor_slices(np.array([[1, 2], [3, 4], [5, 6]], dtype=np.int32)).padded_batch(
        2, padded_shapes=[3], padding_values=-1)
    assert [x.tolist() for x in ds.as_numpy_iterator()] == [[[1, 2, -1], [3, 4, -1]], [[5, 6, -1]]]
