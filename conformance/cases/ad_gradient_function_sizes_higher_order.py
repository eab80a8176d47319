"""Autodiff: the node counts (arguments included) of the pair TF builds for a tf.function called
under a persistent tape (higher-order gradients possible): its forward function is the
first-order one's, its backward function also takes a gradient for each side output of the
forward function (_HigherOrderTapeGradientFunctions), iterating until the outputs settle."""
from cases._gradient_functions import pairs, sizes

v = tf.Variable([1.0, 2.0], name="v")


@tf.function
def f(x):
    return tf.reduce_sum(tf.exp(x) * v)


x = tf.constant([3.0, 4.0])
before = set(pairs(tf))
with tf.GradientTape(persistent=True) as t:
    y = f(x)
built = sorted(set(pairs(tf)) - before)
record("persistent tape", [sizes(tf, fw, bw) for fw, bw in built])
record("gradient", t.gradient(y, v).numpy())
