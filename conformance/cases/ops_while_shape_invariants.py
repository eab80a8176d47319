"""Ops: tf.while_loop with shape_invariants: a loop variable that grows gets the invariant's shape inside the loop and after it; a body that breaks a fully defined invariant fails with TF's text."""


@tf.function
def grow(n):
    i0 = tf.constant(0)
    x0 = tf.constant([0])
    i, x = tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, [i]], 0)),
                         [i0, x0], shape_invariants=[i0.shape, tf.TensorShape([None])])
    return i, x


call("grow 3", grow, tf.constant(3))
call("grow 0", grow, tf.constant(0))
cf = grow.get_concrete_function(tf.constant(1))
record("grow outputs", repr(cf.structured_outputs))
graph_ops("grow ops", cf)


@tf.function
def grow_without_invariant(n):
    return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, [i]], 0)),
                         [tf.constant(0), tf.constant([0])])


call("grow without invariant", grow_without_invariant, tf.constant(3))


@tf.function
def wrong_invariant(n):
    return tf.while_loop(lambda i, x: i < n, lambda i, x: (i + 1, tf.concat([x, [i]], 0)),
                         [tf.constant(0), tf.constant([0])],
                         shape_invariants=[tf.TensorShape([]), tf.TensorShape([1])])


call("wrong invariant", wrong_invariant, tf.constant(3))
