"""Ops: shape and indexing as LSTMs, embeddings and CNNs use them: tf.split (Split, SplitV with a
-1), tf.one_hot (on/off values, axis, dtype, out-of-range indices), tf.eye, tf.where with one
operand, tf.gather_nd, tf.scatter_nd (duplicates add), tf.tensor_scatter_nd_update, tf.pad
(Pad, PadV2, MirrorPad REFLECT/SYMMETRIC), tf.reverse, tf.sequence_mask and tf.linalg.matvec:
values, the graphs' nodes and static shapes, TF's errors."""

x = tf.reshape(tf.range(24.), [4, 6])
record("split 3 axis 1", tf.split(x, 3, axis=1))
record("split sizes", tf.split(x, [2, 4], 1))
record("split sizes -1", tf.split(x, [1, -1, 2], axis=1))
record("split axis 0 default", tf.split(x, 2))
record("split tensor sizes", tf.split(x, tf.constant([3, 3]), axis=1))
record("split strings", tf.split(tf.constant(["a", "b", "c", "d"]), 2))
attempt("split uneven", lambda: tf.split(x, 4, axis=1))
attempt("split sizes bad", lambda: tf.split(x, [2, 3], 1))
attempt("split two -1", lambda: tf.split(x, [-1, -1], 1))
attempt("split axis 2", lambda: tf.split(x, 2, axis=2))
attempt("split scalar tensor", lambda: tf.split(x, tf.constant(2), 1))

record("one_hot", tf.one_hot([0, 1, 2], 3))
record("one_hot out of range", tf.one_hot([0, -1, 5, 2], 3))
record("one_hot on/off", tf.one_hot([0, 2, -1, 1], 3, 5.0, 0.0, -1))
record("one_hot axis 0", tf.one_hot([0, 2], 3, axis=0))
record("one_hot int dtype", tf.one_hot([1], 3, dtype=tf.int32))
record("one_hot int on_value", tf.one_hot([1], 3, on_value=5))
record("one_hot 2-D", tf.one_hot([[0, 2], [1, -1]], 3))
attempt("one_hot depth -1", lambda: tf.one_hot([0], -1))
attempt("one_hot axis 2", lambda: tf.one_hot([1], 3, axis=2))
attempt("one_hot on/off dtypes", lambda: tf.one_hot([1], 3, on_value=1., off_value=0))

record("eye 3", tf.eye(3))
record("eye 2x3 int32", tf.eye(2, 3, dtype=tf.int32))
record("eye batch", tf.eye(2, batch_shape=[3]))

record("where one operand", tf.where([[True, False], [False, True]]))
record("where of floats", tf.where([1., 0., 2.]))
record("where of a comparison", tf.where(x > 20.))

record("gather_nd", tf.gather_nd(x, [[0, 1], [2, 3]]))
record("gather_nd slices", tf.gather_nd(x, [[1], [3]]))
record("gather_nd 3-D indices", tf.gather_nd(x, [[[0, 0]], [[3, 5]]]))
attempt("gather_nd out of range", lambda: tf.gather_nd(x, [[0, 9]]))
attempt("gather_nd index too long", lambda: tf.gather_nd(x, [[1, 1, 1]]))

record("scatter_nd", tf.scatter_nd([[4], [3], [1], [7]], [9., 10., 11., 12.], [8]))
record("scatter_nd duplicates add", tf.scatter_nd([[1], [1]], [2., 3.], [4]))
record("scatter_nd slices", tf.scatter_nd([[0], [2]], [[5, 5, 5], [6, 6, 6]], [4, 3]))
attempt("scatter_nd out of range", lambda: tf.scatter_nd([[5]], [2.], [4]))
record("tensor_scatter_nd_update", tf.tensor_scatter_nd_update(x, [[0, 1], [3, 5]], [-1., -2.]))
record("tensor_scatter_nd_update duplicates", tf.tensor_scatter_nd_update(tf.zeros([3]), [[1], [1]], [1., 2.]))
record("tensor_scatter_nd_update rows", tf.tensor_scatter_nd_update(x, [[2]], [[0., 0, 0, 0, 0, 0]]))
attempt("tensor_scatter_nd_update out of range", lambda: tf.tensor_scatter_nd_update(x, [[9, 0]], [1.]))

t = tf.constant([[1, 2, 3], [4, 5, 6]])
p = [[1, 1], [2, 2]]
record("pad", tf.pad(t, p))
record("pad constant 7", tf.pad(t, p, constant_values=7))
record("pad REFLECT", tf.pad(t, p, "REFLECT"))
record("pad SYMMETRIC", tf.pad(t, p, "SYMMETRIC"))
record("pad lower-case mode", tf.pad(t, [[1, 0], [0, 0]], "reflect"))
record("pad float", tf.pad(x, [[0, 1], [1, 0]], constant_values=-1.5))
attempt("pad negative", lambda: tf.pad(x, [[-1, 0], [0, 0]]))
attempt("pad wrong rank", lambda: tf.pad(x, [[1, 1]]))
attempt("pad REFLECT too big", lambda: tf.pad(x, [[4, 0], [0, 0]], "REFLECT"))
attempt("pad bad mode", lambda: tf.pad(x, [[1, 0], [0, 0]], "FOO"))

record("reverse", tf.reverse(x, [1]))
record("reverse both", tf.reverse(x, [0, -1]))
attempt("reverse twice", lambda: tf.reverse(x, [1, 1]))
attempt("reverse out of range", lambda: tf.reverse(x, [2]))

record("sequence_mask", tf.sequence_mask([1, 3, 2], 5))
record("sequence_mask no maxlen", tf.sequence_mask([1, 3, 0]))
record("sequence_mask 2-D", tf.sequence_mask([[1, 3], [2, 0]]))
record("sequence_mask float", tf.sequence_mask([1, 2], 3, dtype=tf.float32))

record("matvec", tf.linalg.matvec(x, tf.ones([6])))
record("matvec transpose", tf.linalg.matvec(x, tf.ones([4]), transpose_a=True))
record("matvec batched", tf.linalg.matvec(tf.reshape(tf.range(12.), [2, 2, 3]), tf.constant([1., 0., -1.])))


def nodes(label, f, *specs):
    cf = tf.function(f, autograph=False).get_concrete_function(*specs)
    record(label + " nodes", [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node])
    record(label + " shapes", [repr(t.shape) for t in cf.outputs])


s = tf.TensorSpec([4, 6], tf.float32)
ids = tf.TensorSpec([3], tf.int32)
nodes("split 3", lambda x: tf.split(x, 3, axis=1), s)
nodes("split sizes", lambda x: tf.split(x, [2, -1], 1), s)
nodes("split sizes unknown dim", lambda x: tf.split(x, [2, -1], 1), tf.TensorSpec([4, None], tf.float32))
nodes("one_hot", lambda i: tf.one_hot(i, 5), ids)
nodes("one_hot on/off axis 0", lambda i: tf.one_hot(i, 5, on_value=2., off_value=-1., axis=0), ids)
nodes("eye", lambda x: tf.eye(3) + x[0, 0], s)
nodes("eye 2x3", lambda x: tf.eye(2, 3) + x[0, 0], s)
nodes("where one operand", lambda x: tf.where(x > 0), s)
nodes("gather_nd", lambda x: tf.gather_nd(x, [[0, 1], [2, 3]]), s)
nodes("scatter_nd", lambda u: tf.scatter_nd([[1], [3]], u, [5]), tf.TensorSpec([2], tf.float32))
nodes("tensor_scatter_nd_update", lambda x: tf.tensor_scatter_nd_update(x, [[0, 1]], [9.]), s)
nodes("pad", lambda x: tf.pad(x, [[1, 1], [0, 2]]), s)
nodes("pad unknown dim", lambda x: tf.pad(x, [[1, 1], [0, 2]]), tf.TensorSpec([None, 6], tf.float32))
nodes("pad constant", lambda x: tf.pad(x, [[1, 1], [0, 2]], constant_values=3.), s)
nodes("pad REFLECT", lambda x: tf.pad(x, [[1, 1], [0, 2]], "REFLECT"), s)
nodes("reverse", lambda x: tf.reverse(x, [1]), s)
nodes("sequence_mask", lambda l: tf.sequence_mask(l, 5), ids)
nodes("sequence_mask no maxlen", lambda l: tf.sequence_mask(l), ids)
nodes("matvec", lambda x: tf.linalg.matvec(x, tf.ones([6])), s)

graph_errors = {
    "split uneven": lambda x: tf.split(x, 4, axis=1),
    "split sizes bad": lambda x: tf.split(x, [2, 3], 1),
    "split axis 2": lambda x: tf.split(x, 2, axis=2),
    "split two -1": lambda x: tf.split(x, [-1, -1], 1),
    "gather_nd index too long": lambda x: tf.gather_nd(x, [[1, 1, 1]]),
    "pad wrong rank": lambda x: tf.pad(x, [[1, 1]]),
    "reverse out of range": lambda x: tf.reverse(x, [2]),
}
for name, fn in graph_errors.items():
    g = tf.function(fn, autograph=False)
    attempt(name + " in a graph", lambda g=g: [t.shape for t in g.get_concrete_function(s).outputs])


@tf.function
def lstm_gates(z):
    i, f, c, o = tf.split(z, 4, axis=-1)
    return tf.sigmoid(i) * tf.tanh(c) + tf.sigmoid(f) * tf.sigmoid(o)


call("LSTM gates in tf.function", lstm_gates, tf.reshape(tf.range(16.) / 10., [2, 8]))
