"""Captures: a large eager tensor (>128 elements) is captured as a Placeholder fed on every call."""
big = tf.ones([256])
edge = tf.ones([128])
over = tf.ones([129])

@tf.function
def f(x):
    return tf.reduce_sum(big) + tf.reduce_sum(edge) + tf.reduce_sum(over) + x

call("call", f, tf.constant(1.0))
describe("cf", f.get_concrete_function(tf.constant(1.0)))
