"""tf.nn.conv2d with a tf.Variable filter: TF's generated Conv2D wrapper reads the variable inside
the op's name scope (Conv2D/ReadVariableOp, its captured handle Conv2D/ReadVariableOp/resource),
in a tf.function and named; the values eagerly and traced."""
from cases._fn_graph import graph

k = tf.Variable(tf.constant([[[[2.0]]]]), name="k")
x = tf.reshape(tf.range(4, dtype=tf.float32), [1, 2, 2, 1])


@tf.function
def f(x):
    return tf.nn.conv2d(x, k, 1, "SAME")


@tf.function
def g(x):
    return tf.nn.conv2d(x, k, 1, "VALID", name="second")


call("conv2d eagerly", lambda: tf.nn.conv2d(x, k, 1, "SAME"))
call("f(x)", f, x)
record("f graph", graph(f.get_concrete_function(x)))
call("g(x)", g, x)
record("g graph", graph(g.get_concrete_function(x)))
