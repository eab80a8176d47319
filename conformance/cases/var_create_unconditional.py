"""Variables: creating a variable unconditionally -> ValueError (singleton variables only) on the first call."""
@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x

call("f(1.0)", f, 1.0)
call("f(1.0) again", f, 1.0)
