"""A tf.Variable as an operand of the index and statistics ops whose C++ front ends convert their
inputs as TF's generated wrappers do: the variable is read inside the op's scope
(`<Op>/ReadVariableOp`), in the order the wrapper converts its inputs (ScatterNd reads its
updates after converting the indices). tf.gather_nd of a variable's own value is TF's
ResourceGatherNd, not covered here. Control inputs are left out (TF_FACTS 19.5)."""
v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
iv = tf.Variable([[0], [1]])
kv = tf.Variable(1)


@tf.function
def f():
    return (tf.scatter_nd([[0], [1]], v, [3, 2]),
            tf.tensor_scatter_nd_update(v, [[0]], [[5.0, 6.0]]),
            tf.pad(v, [[1, 0], [0, 1]]),
            tf.pad(v, [[1, 0], [0, 1]], constant_values=7.0),
            tf.reverse(v, [0]),
            tf.stop_gradient(v),
            tf.math.top_k(v, 1).values,
            tf.math.top_k(v, kv).indices,
            tf.gather_nd(tf.constant([[1.0, 2.0], [3.0, 4.0]]), iv))


cf = f.get_concrete_function()
record("nodes", [(n.name, n.op, [i for i in n.input if not i.startswith("^")])
                 for n in cf.graph.as_graph_def().node])
call("call", f)
call("eager scatter_nd", lambda: tf.scatter_nd([[0], [1]], v, [3, 2]))
call("eager pad", lambda: tf.pad(v, [[1, 0], [0, 1]], constant_values=7.0))
call("eager top_k", lambda: tf.math.top_k(v, kv))
call("eager reverse", lambda: tf.reverse(v, [1]))
