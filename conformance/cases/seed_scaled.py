"""Seed 003 / S1: scaled(a,2) scaled(b,2) scaled(c,2) scaled(c,3) -> 3 traces, print at trace, tf.print per call."""
@tf.function
def scaled(x, factor):
    print("TRACE", x.shape, factor)       # Python, during tracing
    tf.print("RUN", tf.shape(x), factor)  # graph operation
    return x * factor

a = tf.constant([1, 2], dtype=tf.int32)
b = tf.constant([8, 9], dtype=tf.int32)
c = tf.constant([1, 2, 3, 4], dtype=tf.int32)

call("scaled(a,2)", scaled, a, 2)
call("scaled(b,2)", scaled, b, 2)
call("scaled(c,2)", scaled, c, 2)
call("scaled(c,3)", scaled, c, 3)
describe("cf(a,2)", scaled.get_concrete_function(a, 2))
signatures("all", scaled)
