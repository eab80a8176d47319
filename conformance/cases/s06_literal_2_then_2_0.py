"""S6: scaled(a,2) then scaled(a,2.0) -> 1 trace; Literal(2)==Literal(2.0), the int graph is reused."""
@tf.function
def scaled(x, factor):
    print("TRACE", x.shape, factor)
    tf.print("RUN", tf.shape(x), factor)
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])

call("scaled(a,2)", scaled, a, 2)
call("scaled(a,2.0)", scaled, a, 2.0)
signatures("sigs", scaled)
