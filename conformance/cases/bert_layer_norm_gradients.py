"""Autodiff: the gradients of BERT's layer norm (tf.nn.moments, then tf.nn.batch_normalization
with scale and offset) with respect to its input, gamma and beta, eagerly and in a tf.function; the
gradient of tf.math.squared_difference alone (broadcast and same-shape operands), and its gradient
graph op for op (the "scalar" constant and the control inputs TF's math_grad.py gives it). Eagerly,
the mean's gradient must survive the StopGradient its variance reads it through."""
from cases._fn_graph import graph

rng = np.random.RandomState(0)
x = tf.constant(rng.standard_normal((2, 3, 4)).astype(np.float32))
w = tf.constant(rng.standard_normal((2, 3, 4)).astype(np.float32))
gamma = tf.Variable(rng.standard_normal(4).astype(np.float32), name="gamma")
beta = tf.Variable(rng.standard_normal(4).astype(np.float32), name="beta")


def layer_norm_grads(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        mean, variance = tf.nn.moments(x, axes=[-1], keepdims=True)
        y = tf.nn.batch_normalization(x, mean, variance, offset=beta, scale=gamma,
                                      variance_epsilon=1e-3)
        loss = tf.reduce_sum(y * w)
    return tape.gradient(loss, [x, gamma, beta])


call("eager", layer_norm_grads, x)
call("traced", tf.function(layer_norm_grads), x)


def sqdiff_grads(a, b):
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        loss = tf.reduce_sum(tf.math.squared_difference(a, b) * w)
    return tape.gradient(loss, [a, b])


b_row = tf.constant(rng.standard_normal((2, 3, 1)).astype(np.float32))
call("squared_difference eager (broadcast)", sqdiff_grads, x, b_row)
call("squared_difference eager (same shape)", sqdiff_grads, x, w)
traced = tf.function(sqdiff_grads)
call("squared_difference traced (broadcast)", traced, x, b_row)
record("broadcast graph", graph(traced.get_concrete_function(x, b_row)))
record("same shape graph", graph(traced.get_concrete_function(x, w)))
