"""S5: S4 with reduce_retracing=True -> 2 traces, the second relaxed to (None,)."""
@tf.function(reduce_retracing=True)
def scaled(x, factor):
    print("TRACE", x.shape, factor)
    tf.print("RUN", tf.shape(x), factor)
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])

call("scaled(a,t2)", scaled, a, tf.constant(2))
call("scaled(b,t2)", scaled, b, tf.constant(2))
call("scaled(c,t2)", scaled, c, tf.constant(2))
call("scaled(c,t3)", scaled, c, tf.constant(3))
signatures("sigs", scaled)
