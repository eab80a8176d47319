"""Context: tf.executing_eagerly() in every place: eagerly, in a traced body, in a tf.cond branch and a while body while tracing, under tf.init_scope in a trace, in an inner function traced inside an outer one."""
seen = []


@tf.function
def inner(x):
    seen.append(("inner", tf.executing_eagerly()))
    return x


@tf.function
def f(x):
    seen.append(("body", tf.executing_eagerly()))

    def t():
        seen.append(("cond branch", tf.executing_eagerly()))
        return x + 1

    y = tf.cond(x > 0, t, lambda: x - 1)
    i = tf.constant(0)
    while i < 2:
        seen.append(("while body", tf.executing_eagerly()))
        i += 1
    with tf.init_scope():
        seen.append(("init_scope", tf.executing_eagerly()))
    return inner(y) + i


seen.append(("eager", tf.executing_eagerly()))
call("f(1)", f, tf.constant(1))
record("seen", seen)
