"""tf.gather of a tf.Variable: on axis 0 it is ResourceGather (`Gather`, the variable's handle
`Gather/resource`); on another axis the variable is read inside GatherV2's scope
(`GatherV2/ReadVariableOp`), as TF's generated wrapper converts its inputs; a Conv2D filter
likewise (`Conv2D/ReadVariableOp`). Control inputs are left out (TF_FACTS 19.5: tfscope orders
reads of one variable)."""
v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
k = tf.Variable(tf.ones([1, 1, 2, 1]))


@tf.function
def f(i):
    return (tf.gather(v, i), tf.gather(v, i, axis=1), tf.gather(v, i, axis=1, name="cols"),
            tf.nn.conv2d(tf.ones([1, 2, 2, 2]), k, 1, "VALID"))


cf = f.get_concrete_function(tf.TensorSpec([None], tf.int32))
record("nodes", [(n.name, n.op, [i for i in n.input if not i.startswith("^")])
                 for n in cf.graph.as_graph_def().node])
call("call", f, tf.constant([1, 0]))
call("eager axis 1", lambda: tf.gather(v, [1, 0], axis=1))
call("eager axis 1 out of range", lambda: tf.gather(v, [2], axis=1))
call("eager axis 0", lambda: tf.gather(v, [2, 0]))
