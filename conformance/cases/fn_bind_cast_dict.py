"""input_signature with a dict: a tensor, a list or a number where the dict is expected, and a
dict with other keys, are binding errors with TF's texts; the right dict is cast."""
@tf.function(input_signature=[{"a": tf.TensorSpec([], tf.int32), "b": tf.TensorSpec([2], tf.float32)}])
def d(x):
    return x["a"], x["b"]


call("a tensor", d, tf.constant(1))
call("a list", d, [1])
call("a number", d, 1)
call("other keys", d, {"a": 1, "c": [1.0, 2.0]})
call("a missing key", d, {"a": 1})
call("the right dict", d, {"b": [1.0, 2.0], "a": 3})
call("a dtype that does not cast", d, {"a": 1.5, "b": [1.0, 2.0]})
count("count", d)
