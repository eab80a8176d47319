"""Literals: 0 == False == 0.0 == -0.0 share one trace; the first value is baked in (tf.print shows it)."""
@tf.function
def f(v):
    print("trace", repr(v))
    tf.print("run", v)
    return tf.constant(1)

call("0", f, 0)
call("False", f, False)
call("0.0", f, 0.0)
call("-0.0", f, -0.0)
call("1", f, 1)
call("True", f, True)
call("1.0", f, 1.0)
