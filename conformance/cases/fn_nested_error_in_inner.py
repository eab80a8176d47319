"""Function layer: an error while tracing the inner function propagates out of the outer call with the same type and text: neither function caches anything; a good call afterwards traces both."""


@tf.function(autograph=False)
def inner(x, bad):
    if bad:
        raise ValueError("inner refuses")
    return x + 1


@tf.function(autograph=False)
def outer(x, bad):
    return inner(x, bad) * 2


call("outer bad", outer, tf.constant(1), True)
count("inner count after error", inner)
count("outer count after error", outer)
call("outer good", outer, tf.constant(1), False)
count("inner count", inner)
count("outer count", outer)
