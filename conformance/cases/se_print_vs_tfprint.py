"""Side effects: print() shows symbolic values at trace time only; tf.print shows runtime values every call."""
@tf.function
def f(x, n):
    print("py:", x, n, x.shape, x.dtype)
    tf.print("tf:", x, n)
    y = x * 2
    print("py y:", y)
    tf.print("tf y:", y)
    return y

call("1", f, tf.constant([1, 2]), 3)
call("2", f, tf.constant([5, 6]), 3)
call("3", f, tf.constant([5, 6]), 4)
