"""S8: positional vs keyword binding never matters -> 1 trace."""
@tf.function
def scaled(x, factor):
    print("TRACE", x.shape, factor)
    tf.print("RUN", tf.shape(x), factor)
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
c = tf.constant([1, 2, 3, 4])

call("scaled(a,2)", scaled, a, 2)
call("scaled(a,factor=2)", scaled, a, factor=2)
call("scaled(x=a,factor=2)", scaled, x=a, factor=2)
call("scaled(factor=2,x=a)", scaled, factor=2, x=a)
