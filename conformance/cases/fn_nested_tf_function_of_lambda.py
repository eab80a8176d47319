"""Function layer: tf.function applied to a plain function and to a lambda at the call site, used inside another trace: the wrapped function is traced as a callee like a decorated one; the lambda's Function is new on every outer trace."""
def plain(x):
    print("trace plain")
    return x - 1


plain_fn = tf.function(plain)


@tf.function
def outer(x):
    neg = tf.function(lambda y: -y)
    return neg(plain_fn(x))


call("outer(5)", outer, tf.constant(5))
call("outer(6) hit", outer, tf.constant(6))
call("outer(7.0) retrace", outer, tf.constant(7.0))
count("plain_fn count", plain_fn)
count("outer count", outer)
