"""Ops: names TF's Python wrappers give: zeros_like/ones_like fold to a Const named after them when the static shape is fully defined (the op otherwise); tf.pow is "Pow" while ** is "pow"; tf.nn.bias_add converts its operands in its own scope ("BiasAdd/bias")."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function
def like(x):
    return tf.zeros_like(x), tf.ones_like(x), tf.pow(x, 2.0), x ** 2, tf.nn.bias_add(x, [1., 2., 3.])


call("like", like, tf.constant([[1., 2., 3.]]))
record("static shape", nodes(like.get_concrete_function(tf.TensorSpec([2, 3], tf.float32))))
record("dynamic shape", nodes(like.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))))
record("eager", [tf.zeros_like(tf.constant([1, 2])).numpy().tolist(),
                 tf.ones_like(tf.constant([[1.5]])).numpy().tolist()])
