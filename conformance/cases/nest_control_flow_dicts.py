"""Nests through control flow and the tape: tf.while_loop, tf.cond and tape.gradient take dicts
and hand them back in their own key order, flattened by sorted key (10 after 2)."""
@tf.function
def loop(n):
    return tf.while_loop(lambda i, d: i < n,
                         lambda i, d: (i + 1, {"b": d["b"] + 1, "a": d["a"] * 2}),
                         (tf.constant(0), {"b": tf.constant(0), "a": tf.constant(1)}))

r = call("while_loop dict", loop, tf.constant(3))
record("while_loop dict: key order", list(r[1].keys()))


@tf.function
def branch(p):
    return tf.cond(p, lambda: {10: tf.constant(1), 2: tf.constant(2)},
                   lambda: {10: tf.constant(3), 2: tf.constant(4)})

r = call("cond dict true", branch, tf.constant(True))
record("cond dict: key order", list(r.keys()))
call("cond dict false", branch, tf.constant(False))

a = tf.Variable(2.0)
b = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = a * a * b
g = tape.gradient(y, {10: a, 2: b})
record("gradient dict", g)
record("gradient dict: key order", list(g.keys()))
with tf.GradientTape() as tape:
    y = a * b
g = tape.gradient({"z": y, "c": y * 2}, [b, a])
record("gradient of a dict target", g)
