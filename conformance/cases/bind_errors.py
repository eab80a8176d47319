"""Binding errors without input_signature: arity and keyword errors are TypeErrors wrapped by tf.function."""
@tf.function
def f(x, y=3):
    return tf.constant(x) + y

call("ok", f, 1)
call("too many", f, 1, 2, 3)
call("missing", f)
call("unexpected kw", f, 1, z=2)
call("multiple values", f, 1, x=2)
