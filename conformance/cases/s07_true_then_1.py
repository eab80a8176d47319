"""S7: scaled(a,True) then scaled(a,1) -> 1 trace; the True graph serves the 1 call."""
@tf.function
def scaled(x, factor):
    print("TRACE", x.shape, factor)
    tf.print("RUN", tf.shape(x), factor)
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])

call("scaled(a,True)", scaled, a, True)
call("scaled(a,1)", scaled, a, 1)
signatures("sigs", scaled)
