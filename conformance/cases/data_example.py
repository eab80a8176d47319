"""tf.train.Example and tf.io.parse_single_example / parse_example for FixedLenFeature and
VarLenFeature, as the TFRecord tutorial writes and reads them: bytes of serialized Examples,
parsed dense values and SparseTensors (tf.sparse.to_dense), defaults, and TF's texts for a
missing feature, a wrong type, a wrong count and bytes that are no Example."""
import os
import tempfile

F = tf.train.Feature


def ints(*v):
    return F(int64_list=tf.train.Int64List(value=list(v)))


def floats(*v):
    return F(float_list=tf.train.FloatList(value=list(v)))


def strs(*v):
    return F(bytes_list=tf.train.BytesList(value=list(v)))


def example(**features):
    return tf.train.Example(features=tf.train.Features(feature=features)).SerializeToString()


def show(value):
    if isinstance(value, dict):
        return {k: show(v) for k, v in value.items()}
    if hasattr(value, "dense_shape"):
        return ("sparse", value.indices.numpy(), value.values.numpy(), value.dense_shape.numpy())
    return value.numpy()


e1 = example(a=ints(1, 2, 3), b=floats(1.5), c=strs(b"x", b"yz"))
e2 = example(c=strs(b"q"), b=floats(2.0), a=ints(4, 5, 6))
# TF's Python writes a Features map in its hash table's order (it differs between runs), so
# only one-feature Examples have bytes to compare; the others compare as parsed values.
record("bytes", [example(**{k: f}).hex() for k, f in [
    ("a", ints(1, 2, 3)), ("b", floats(1.5, -2.25)), ("c", strs(b"x", b"yz")), ("big", ints(-1, 2 ** 40)),
    ("e", ints()), ("f", floats()), ("g", strs()), ("u", strs("h\u00e9llo".encode("utf-8")))]])
record("bytes parse back", str(tf.train.Example.FromString(example(k=ints(5, 6)))))
record("roundtrip", tf.train.Example.FromString(e1) == tf.train.Example.FromString(e1))
record("text", str(tf.train.Example(features=tf.train.Features(feature={"a": ints(1, 2)}))))
spec = {"a": tf.io.FixedLenFeature([3], tf.int64), "b": tf.io.FixedLenFeature([], tf.float32),
        "c": tf.io.VarLenFeature(tf.string)}
record("spec repr", (repr(spec["a"]), repr(spec["c"])))
record("single", show(tf.io.parse_single_example(e1, spec)))
record("batch", show(tf.io.parse_example([e1, e2], spec)))
record("batch tensor", show(tf.io.parse_example(next(iter(tf.data.Dataset.from_tensor_slices([e2, e1]).batch(2))), spec)))
record("to_dense", tf.sparse.to_dense(tf.io.parse_example([e1, e2], spec)["c"]).numpy())
record("default", show(tf.io.parse_single_example(example(b=floats(1.0)), {
    "a": tf.io.FixedLenFeature([2], tf.int64, default_value=[7, 8]),
    "s": tf.io.FixedLenFeature([], tf.string, default_value="d")})))
record("varlen missing", show(tf.io.parse_single_example(example(b=floats(1.0)),
                                                         {"v": tf.io.VarLenFeature(tf.int64)})))
record("varlen batch", show(tf.io.parse_example([example(v=ints(1)), example(v=ints(2, 3, 4))],
                                                {"v": tf.io.VarLenFeature(tf.int64)})))
record("2x2", show(tf.io.parse_single_example(example(m=floats(1, 2, 3, 4)),
                                              {"m": tf.io.FixedLenFeature([2, 2], tf.float32)})))
A = {"a": tf.io.FixedLenFeature([3], tf.int64)}
good = example(a=ints(1, 2, 3))
for label, data in [("missing", example(b=floats(1.0))), ("count", example(a=ints(1, 2))),
                    ("float count", example(a=floats(1.0, 2.0))), ("type", example(a=floats(1.0, 2.0, 3.0))),
                    ("garbage", b"garbage")]:
    attempt("single " + label, lambda d=data: tf.io.parse_single_example(d, A))
    attempt("batch " + label, lambda d=data: tf.io.parse_example([good, d], A))
attempt("varlen type", lambda: tf.io.parse_example([good, example(a=floats(1.0))], {"a": tf.io.VarLenFeature(tf.int64)}))
attempt("no features", lambda: tf.io.parse_single_example(good, {}))

# The TFRecord tutorial's loop: Examples written to a file, read back and parsed.
path = os.path.join(tempfile.mkdtemp(), "examples.tfrecord")
with tf.io.TFRecordWriter(path) as w:
    for i in range(3):
        w.write(example(id=ints(i), name=strs(b"n%d" % i)))
parsed = [show(tf.io.parse_single_example(r, {"id": tf.io.FixedLenFeature([], tf.int64),
                                              "name": tf.io.FixedLenFeature([], tf.string)}))
          for r in tf.data.TFRecordDataset(path)]
record("tutorial", parsed)
