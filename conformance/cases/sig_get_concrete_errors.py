"""get_concrete_function on a Function with an input_signature: no args, matching specs, and incompatible specs."""
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def f(x):
    return x * 2.0

c0 = concrete("no args", f)
c1 = concrete("matching spec", f, tf.TensorSpec([None], tf.float32))
record("same cf", c0 is c1)
c2 = concrete("narrower spec", f, tf.TensorSpec([3], tf.float32))
record("narrower spec gives the same cf", c2 is c0)
concrete("int spec", f, tf.TensorSpec([None], tf.int32))
concrete("tensor arg", f, tf.constant([1.0, 2.0]))
concrete("too many", f, tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.float32))
count("count", f)
