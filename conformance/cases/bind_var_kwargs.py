"""Binding: **kwargs unrolled as keyword-only parameters sorted by name; a different key set traces."""
@tf.function
def f(*args, **kwargs):
    print("trace", args, sorted(kwargs))
    return tf.constant(1)

call("f(1, x=2)", f, 1, x=2)
call("f(1, {'x': 2})", f, 1, {"x": 2})
call("f(1, x=2) again", f, 1, x=2)
call("f(1, y=2)", f, 1, y=2)
call("f(1, y=2, x=2)", f, 1, y=2, x=2)
call("f(1, x=2, y=2)", f, 1, x=2, y=2)
signatures("sigs", f)
