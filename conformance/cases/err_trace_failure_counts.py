"""Errors: an exception raised while tracing adds nothing to the cache; later calls trace normally."""
@tf.function
def f(x, mode):
    print("trace", mode)
    if mode == "bad":
        raise ValueError("bad mode")
    return x + 1

x = tf.constant(1)
call("bad", f, x, "bad")
call("good", f, x, "good")
call("bad again", f, x, "bad")
call("good again", f, x, "good")
