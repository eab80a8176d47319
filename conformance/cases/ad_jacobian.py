"""Autodiff: tape.jacobian and tape.batch_jacobian: a persistent tape serving several jacobians
(of a dense layer's output with respect to its input and a variable, of a per-row reduction),
batch_jacobian, unconnected sources (None, or zeros with UnconnectedGradients.ZERO), the error for
mismatched batch dims, a jacobian inside a tf.function, and the non-persistent tape used up by its
first jacobian. Values and shapes are TF's (TF vectorizes the backward passes with pfor; tfscope
runs one pass per target element, so the graphs differ and are not compared). At most four
eager jacobians: TF's eager pfor wraps its loop in a new tf.function each time, and its fifth call
logs TF's retracing warning for `pfor.<locals>.f`, which tfscope does not."""
# conformance: live-only: the jacobians run MatMul and tanh, whose last bits depend on the CPU and on oneDNN

rng = np.random.default_rng(3)
x = tf.constant(rng.normal(size=(2, 3)).astype(np.float32))
w = tf.Variable(rng.normal(size=(3, 4)).astype(np.float32), name="w")

with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = tf.tanh(tf.matmul(x, w))
    z = tf.reduce_sum(y * y, axis=1)

jx, jw = tape.jacobian(y, [x, w])
record("jacobian shapes", [jx.shape.as_list(), jw.shape.as_list()])
record("jacobian wrt x", jx)
record("jacobian wrt w", jw)
bj = tape.batch_jacobian(y, x)
record("batch_jacobian shape", bj.shape.as_list())
record("batch_jacobian", bj)
record("unconnected zero",
       tape.jacobian(z, [tf.constant([1.0, 2.0]), x],
                     unconnected_gradients=tf.UnconnectedGradients.ZERO))
attempt("batch dims differ", lambda: tape.batch_jacobian(y, tf.ones([3, 2])))


@tf.function
def in_function(v):
    with tf.GradientTape() as t:
        t.watch(v)
        out = tf.tanh(v) * v
    return t.jacobian(out, v)


call("jacobian in a tf.function", in_function, tf.constant([0.5, 1.0, 2.0]))

with tf.GradientTape() as once:
    once.watch(x)
    doubled = x * 2.0
record("non-persistent jacobian", once.jacobian(doubled, x))
attempt("second jacobian", lambda: once.jacobian(doubled, x))
