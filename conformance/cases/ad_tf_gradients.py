"""Autodiff: tf.gradients inside a tf.function, as TF 2.21 builds it without a tape: the graph op
for op (the "gradients/" scope, "<op>_grad/" scopes, the targets' Fill "grad_ys_<i>", AddN of a
tensor's gradients), given grad_ys, several targets, an unconnected source (None or zeros), a
variable source, a second call's "gradients_1" scope, and TF's error eagerly."""
from cases._fn_graph import graph

call("eagerly", lambda: tf.gradients(tf.constant(1.0), tf.constant(2.0)))


@tf.function
def f(x, y):
    z = x * y + tf.exp(x)
    return tf.gradients(z, [x, y])


args = (tf.constant([1.0, 2.0]), tf.constant(3.0))
call("x*y + sin(x)", f, *args)
record("x*y + sin(x) graph", graph(f.get_concrete_function(*args)))


@tf.function
def g(x):
    y = tf.reduce_sum(x * x)
    return (tf.gradients(y, x, grad_ys=tf.constant(2.0)),
            tf.gradients(y, tf.constant(1.0)),
            tf.gradients([y, y], [x]),
            tf.gradients(y, [x, tf.constant(1.0)], unconnected_gradients=tf.UnconnectedGradients.ZERO))


call("grad_ys, unconnected, two targets", g, tf.constant([1.0, 2.0]))
record("grad_ys, unconnected, two targets graph", graph(g.get_concrete_function(tf.constant([1.0, 2.0]))))

w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")


@tf.function
def mlp(x):
    h = tf.nn.relu(tf.matmul(x, w))
    loss = tf.reduce_mean(tf.square(h))
    return tf.gradients(loss, [w, x])


call("a variable source", mlp, tf.constant([[1.0, -1.0], [0.5, 2.0]]))
record("a variable source graph", graph(mlp.get_concrete_function(tf.constant([[1.0, -1.0], [0.5, 2.0]]))))

emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="emb")


@tf.function
def gathers(ids):
    loss = tf.reduce_sum(tf.gather(emb, ids)) + tf.reduce_sum(tf.gather(emb, [0]) * 3.0)
    g = tf.gradients(loss, emb)[0]
    return g.values, g.indices, g.dense_shape


# (Its graph is TF's but for one control edge: tfscope orders the second ResourceGather after the
# first, which TF does not do for two reads of one variable; the graph layer's open difference.)
call("two gathers of a variable: IndexedSlices concatenated", gathers, tf.constant([2, 2]))
