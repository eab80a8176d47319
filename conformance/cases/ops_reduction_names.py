"""Ops: reduction node names: a given axis is the op's "reduction_indices" input (a scalar for an int, a vector for a list, even of one), axis None a "Const" range built before the op; argmax's "dimension"."""


@tf.function
def f(x):
    return (tf.reduce_mean(x, axis=0), tf.reduce_sum(x, 1), tf.reduce_max(x),
            tf.reduce_mean(x, axis=[0, 1]), tf.reduce_sum(x, axis=-1, keepdims=True),
            tf.reduce_min(x, axis=[1]), tf.reduce_prod(x, axis=tf.constant(0)), tf.argmax(x, 1))


call("f", f, tf.constant([[1., 2., 3.], [4., 5., 6.]]))
cf = f.get_concrete_function(tf.TensorSpec([2, 3], tf.float32))
record("nodes", [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node])
record("output shapes", [repr(t.shape) for t in cf.outputs])
