"""Ops: tf.sin and tf.cos as a user calls them (angles, a wave, large arguments, gradients of both
and a second derivative), values bit for bit, and the ops of their gradient graphs."""
import hashlib


def bits(t):
    """A hash of the float bytes: the suite's float tolerance would hide a different polynomial."""
    return hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]


angles = tf.constant([0.0, np.pi / 6, np.pi / 4, np.pi / 3, np.pi / 2, np.pi, 1.5 * np.pi, 2 * np.pi])
record("sin angles", tf.sin(angles))
record("cos angles", tf.math.cos(angles))

# A wave over many periods: whole AVX packets and a scalar tail (1003 elements).
t = tf.linspace(-50.0, 50.0, 1003)
record("sin wave bits", bits(tf.sin(t)))
record("cos wave bits", bits(tf.cos(t)))
record("sin wave float64 bits", bits(tf.sin(tf.cast(t, tf.float64))))

# Past the polynomial reduction's range (Payne-Hanek), and the special values.
big = tf.constant([1e5, -3e4, 2.5e4, 1.9e4, 1e10, 3.4e38, -1e20, 123456.789, 7.0, -7.0, 0.5, 1e-3,
                   float("inf"), float("-inf"), float("nan"), 0.0, -0.0])
record("sin big bits", bits(tf.sin(big)))
record("cos big bits", bits(tf.cos(big)))
record("sin big", tf.sin(big))

x = tf.Variable([0.3, 1.2, -2.0])
with tf.GradientTape(persistent=True) as tape:
    y = tf.reduce_sum(tf.sin(x) * tf.cos(x))
    z = tf.reduce_sum(tf.cos(2.0 * x))
record("d/dx sin cos", tape.gradient(y, x))
record("d/dx cos 2x", tape.gradient(z, x))

x0 = tf.constant(0.7)
with tf.GradientTape() as outer:
    outer.watch(x0)
    with tf.GradientTape() as inner:
        inner.watch(x0)
        s = tf.sin(x0)
    ds = inner.gradient(s, x0)
record("sin'", ds)
record("sin''", outer.gradient(ds, x0))


@tf.function
def grad_of_trig(v):
    with tf.GradientTape() as g:
        g.watch(v)
        out = tf.sin(v) + tf.cos(v)
    return g.gradient(out, v)


call("graph gradient", grad_of_trig, tf.constant([0.1, 2.0]))
graph_ops("gradient ops", grad_of_trig.get_concrete_function(tf.constant([0.1, 2.0])))
