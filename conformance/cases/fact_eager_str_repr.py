"""Facts: str()/repr() of eager tensors (floats, ints, bools, strings, 2-D, large), variables, shapes, dtypes, specs."""
values = {
    "float scalar": tf.constant(1.5),
    "float vector": tf.constant([1.0, 2.5, -3.25]),
    "float thirds": tf.constant([1 / 3, 2 / 3]),
    "float64": tf.constant([0.1], tf.float64),
    "int scalar": tf.constant(7),
    "int vector": tf.constant([1, 2, 3]),
    "int64": tf.constant([1, 2], tf.int64),
    "bool": tf.constant([True, False]),
    "string scalar": tf.constant("hi"),
    "string vector": tf.constant(["a", "bc"]),
    "2-D": tf.constant([[1.0, 2.0], [3.0, 4.0]]),
    "large": tf.range(2000),
    "empty": tf.zeros([0, 3]),
    "nan inf": tf.constant([float("nan"), float("inf"), -float("inf")]),
}
for k, v in values.items():
    record(f"str {k}", str(v))
    record(f"repr {k}", repr(v))
v = tf.Variable([1.0, 2.0], name="v")
record("repr variable", repr(v))
record("str shape", str(tf.constant([[1]]).shape))
record("repr shape", repr(tf.constant([[1]]).shape))
record("repr dtype", repr(tf.float32))
record("str dtype", str(tf.int32))
record("repr TensorSpec", repr(tf.TensorSpec([None, 2], tf.float32)))
record("repr TensorSpec named", repr(tf.TensorSpec([], tf.int64, name="n")))
record("repr TensorSpec unknown rank", repr(tf.TensorSpec(None, tf.bool)))
