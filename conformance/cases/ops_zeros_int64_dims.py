"""tf.zeros / tf.ones with a shape list holding int64 tensors: TF's autopacking casts a tensor
whose dtype is not the requested int32 (`zeros/Cast`, before `zeros/packed`), a variable read as
the Cast's input; eager integer scalars in the list count as static dims (a Const in a graph, as
_constant_if_small makes it). Control inputs are left out (TF_FACTS 19.5)."""
x = tf.constant(3, tf.int64)
v = tf.Variable(4, dtype=tf.int64)


@tf.function
def f(n):
    return tf.zeros([n, 2]), tf.ones([v, n]), tf.ones([x]), tf.zeros([x, tf.constant(2)])


cf = f.get_concrete_function(tf.TensorSpec([], tf.int64))
record("nodes", [(n.name, n.op, [i for i in n.input if not i.startswith("^")])
                 for n in cf.graph.as_graph_def().node])
call("call", f, tf.constant(2, tf.int64))
call("eager zeros", lambda: tf.zeros([x]))
call("eager ones", lambda: tf.ones([x, v]))
call("eager mixed", lambda: tf.zeros([x, tf.constant(2)]))
call("autopack casts", lambda: tf.convert_to_tensor([tf.constant(2.5), 1], dtype=tf.int32))
