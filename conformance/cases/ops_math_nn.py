"""Ops: tf.nn.relu/softmax/gelu/sigmoid, tf.tanh values eager and in a graph, and their op types."""
x = tf.constant([-2.0, -0.5, 0.0, 0.5, 3.0])
record("relu", tf.nn.relu(x))
record("softmax", tf.nn.softmax(x))
record("softmax 2-D", tf.nn.softmax(tf.constant([[1.0, 2.0], [3.0, 5.0]])))
record("gelu", tf.nn.gelu(x))
record("gelu approximate", tf.nn.gelu(x, approximate=True))
record("sigmoid", tf.nn.sigmoid(x))
record("tanh", tf.tanh(x))

@tf.function
def act(x):
    return tf.nn.relu(x), tf.nn.softmax(x), tf.nn.gelu(x), tf.nn.sigmoid(x), tf.tanh(x)

call("graph", act, x)
graph_ops("ops", act.get_concrete_function(x))

@tf.function
def gelu_approx(x):
    return tf.nn.gelu(x, approximate=True)

graph_ops("gelu approximate ops", gelu_approx.get_concrete_function(x))
