"""TF's "Advanced automatic differentiation" guide, "Multiple tapes": two tapes watching
two sources of one sum, each asked for its own source's gradient (cos(0) and sigmoid'(0))."""
x0 = tf.constant(0.0)
x1 = tf.constant(0.0)
with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
    tape0.watch(x0)
    tape1.watch(x1)
    y0 = tf.math.sin(x0)
    y1 = tf.nn.sigmoid(x1)
    y = y0 + y1
    ys = tf.reduce_sum(y)
record("tape0", tape0.gradient(ys, x0).numpy())
record("tape1", tape1.gradient(ys, x1).numpy())

