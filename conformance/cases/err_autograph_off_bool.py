"""Errors: with autograph=False a Python `if` on a symbolic tensor raises OperatorNotAllowedInGraphError; nothing is cached."""
@tf.function(autograph=False)
def h(x):
    return x if x > 0 else -x

call("h(1)", h, tf.constant(1))
call("h(1) again", h, tf.constant(1))
record("is TypeError subclass", issubclass(tf.errors.OperatorNotAllowedInGraphError, TypeError))

@tf.function(autograph=False)
def it(x):
    out = 0
    for v in x:
        out += v
    return out

call("iterate", it, tf.constant([1, 2]))
