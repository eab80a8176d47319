"""tf.linspace as TF 2.21 builds it (math_ops.linspace_nd: no LinSpace op), its values in float32
and float64 (num 1, 2, 5, 31), vector end points, a negative axis, the graph's nodes and static
shapes; tf.broadcast_dynamic_shape (BroadcastArgs) with its error; and ConcatV2's static shape
when an input has unknown rank (a slice bounded by a tensor), which crashed the shape function."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


record("float32 0..1 num 5", tf.linspace(0.0, 1.0, 5))
record("float64 -1.5..3 num 31", tf.linspace(tf.constant(-1.5, tf.float64), 3.0, 31))
record("num 1", tf.linspace(2.0, 3.0, 1))
record("num 2", tf.linspace(2.0, 3.0, 2))
record("vector ends", tf.linspace([0.0, 10.0], [1.0, 20.0], 3))
record("vector ends axis -1", tf.linspace([0.0, 10.0], [1.0, 20.0], 3, axis=-1))
attempt("float num", lambda: tf.linspace(0.0, 1.0, 2.5))


@tf.function
def lin(a, b, n):
    return tf.linspace(a, b, n)


args = (tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64), tf.constant(4))
record("in a function", lin(*args))
cf = lin.get_concrete_function(*args)
record("nodes", nodes(cf))
record("static shape", cf.outputs[0].shape)
record("broadcast_dynamic_shape", tf.broadcast_dynamic_shape(tf.constant([2, 1, 3]), tf.constant([4, 1])))
record("broadcast_dynamic_shape int64", tf.broadcast_dynamic_shape(tf.constant([1], tf.int64), tf.constant([5, 2], tf.int64)))
attempt("broadcast_dynamic_shape incompatible", lambda: tf.broadcast_dynamic_shape(tf.constant([2]), tf.constant([3])))


@tf.function
def cat(s, ax):
    return tf.concat((s[0:ax], tf.reshape(tf.constant(3), [1]), s[ax + 1:]), axis=0)


record("concat of slices", cat(tf.constant([7, 8, 9]), tf.constant(1)))
record("concat of slices static shape",
       cat.get_concrete_function(tf.TensorSpec([3], tf.int32), tf.TensorSpec([], tf.int32)).outputs[0].shape)
