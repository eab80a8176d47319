"""Ops: tf.tan, tf.sinh, tf.cosh, tf.asinh, tf.acosh as a user calls them (values bit for bit,
float32 and float64, overflow to inf, out-of-domain NaN), their gradients eagerly and in a
tf.function, and the ops of the gradient graph."""
import hashlib


def bits(t):
    return hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]


x = tf.linspace(-3.0, 3.0, 1001)
for name in ("tan", "sinh", "cosh", "asinh"):
    fn = getattr(tf.math, name)
    record(name + " bits", bits(fn(x)))
    record(name + " float64 bits", bits(fn(tf.cast(x, tf.float64))))
record("acosh bits", bits(tf.math.acosh(tf.linspace(1.0, 50.0, 1001))))
edge = tf.constant([0.0, -0.0, 1.0, 89.5, -89.5, 1e30, float("inf"), float("nan"), 0.5])
record("edge", [tf.tan(edge), tf.sinh(edge), tf.cosh(edge), tf.asinh(edge), tf.acosh(edge)])

v = tf.Variable([0.3, 1.2, 2.5])
with tf.GradientTape(persistent=True) as tape:
    ys = [tf.reduce_sum(f(v)) for f in (tf.tan, tf.sinh, tf.cosh, tf.asinh)]
    ya = tf.reduce_sum(tf.acosh(v + 1.0))
record("gradients", [tape.gradient(y, v) for y in ys])
record("acosh gradient", tape.gradient(ya, v))


@tf.function
def grads(t):
    with tf.GradientTape() as g:
        g.watch(t)
        out = tf.tan(t) + tf.sinh(t) + tf.cosh(t) + tf.asinh(t) + tf.acosh(t + 2.0)
    return g.gradient(out, t)


call("graph gradient", grads, tf.constant([0.1, 0.7]))
graph_ops("gradient ops", grads.get_concrete_function(tf.constant([0.1, 0.7])))
