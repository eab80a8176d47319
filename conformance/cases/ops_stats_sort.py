"""Ops: tf.math.cumsum (axis, exclusive, reverse), tf.math.top_k (ties by index, k of 0, 1 and
the row length), tf.sort / tf.argsort (ascending floats by -x, signed ints by -x - 1, uint8 by
255 - x, another axis by Transpose): values, the graphs' nodes and static shapes, TF's errors."""

x = tf.constant([[1., 2., 3.], [4., 5., 6.]])
record("cumsum", tf.math.cumsum([1, 2, 3, 4]))
record("cumsum axis 1", tf.math.cumsum(x, axis=1))
record("cumsum exclusive", tf.math.cumsum(x, axis=1, exclusive=True))
record("cumsum reverse", tf.math.cumsum(x, reverse=True))
record("cumsum exclusive reverse", tf.math.cumsum(x, 1, exclusive=True, reverse=True))
record("tf.cumsum axis -1", tf.cumsum(x, -1))
record("cumsum int8 wraps", tf.math.cumsum(tf.constant([100, 100], tf.int8)))
record("cumsum of -0.0 bits", tf.math.cumsum(tf.constant([-0.0, -0.0])).numpy().tobytes().hex())
record("cumsum exclusive of -0.0 bits",
       tf.math.cumsum(tf.constant([-0.0, -0.0]), exclusive=True).numpy().tobytes().hex())
record("cumsum int64 axis", tf.math.cumsum(x, tf.constant(1, tf.int64)))
attempt("cumsum axis 5", lambda: tf.math.cumsum(x, 5))
attempt("cumsum axis list", lambda: tf.math.cumsum(x, [0]))
attempt("cumsum scalar", lambda: tf.math.cumsum(tf.constant(1.0)))

v = tf.constant([1, 2, 98, 1, 1, 99, 3, 1, 3, 96, 4, 1])
r = tf.math.top_k(v, k=3)
record("top_k docs", [r.values, r.indices])
record("top_k docs ties", tf.math.top_k([1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0], k=3).indices)
r = tf.math.top_k(tf.constant([1., 3, 3, 0., -0., 3]), 4)
record("top_k float ties", [r.values, r.indices])
r = tf.math.top_k(tf.constant([[5., 1, 5, 2], [0, 0, 0, 0]]), 4)
record("top_k k = row length", [r.values, r.indices])
r = tf.math.top_k(tf.constant([[5., 1, 5, 2], [0, 7, 7, 1]]))
record("top_k k = 1", [r.values, r.indices])
record("top_k k = 0 shapes", [t.shape.as_list() for t in tf.math.top_k(x, 0)])
r = tf.nn.top_k(tf.constant([3, 1, 2], tf.int8), 2)
record("tf.nn.top_k int8", [r.values, r.indices])
record("top_k index_type int64", tf.math.top_k(x, 2, index_type=tf.int64).indices)
record("top_k namedtuple", type(tf.math.top_k(x, 1)).__name__)
record("top_k NaN, k = row length", [t.numpy().tolist() for t in
                                     tf.math.top_k(tf.constant([1., np.nan, 3, 0., np.nan, 2]), 6)])
attempt("top_k k too big", lambda: tf.math.top_k(x, 5))
attempt("top_k k negative", lambda: tf.math.top_k(x, -1))
attempt("top_k scalar", lambda: tf.math.top_k(tf.constant(1.), 1))

m = tf.constant([[3., 1., 2.], [-1., 5., 0.], [2., 2., -7.]])
record("sort", tf.sort(m))
record("sort descending", tf.sort(m, direction="DESCENDING"))
record("sort axis 0", tf.sort(m, axis=0))
record("sort axis 0 descending", tf.sort(m, axis=0, direction="DESCENDING"))
record("argsort", tf.argsort(m))
record("argsort axis 0", tf.argsort(m, axis=0))
record("argsort stable ties", tf.argsort([1, 3, 1, 2, 3, 1]))
record("argsort descending ties", tf.argsort([1, 3, 1, 2, 3, 1], direction="DESCENDING"))
record("sort int32 extremes", tf.sort(tf.constant([3, -2147483648, 2147483647, 0])))
record("sort uint8", tf.sort(tf.constant([3, 0, 255], tf.uint8)))
record("argsort uint8", tf.argsort(tf.constant([3, 0, 255, 3], tf.uint8)))
record("sort rank 3 axis 1", tf.sort(tf.reshape(tf.constant([5., 2, 8, 1, 9, 3, 7, 4, 6, 0, 11, 10]), [2, 3, 2]), axis=1))
record("sort eager tensor axis", tf.sort(m, axis=tf.constant(0)))
attempt("sort bad direction", lambda: tf.sort(m, direction="UP"))
attempt("sort axis tensor list", lambda: tf.sort(m, axis=tf.constant([0])))


def nodes(label, f, *specs):
    cf = tf.function(f, autograph=False).get_concrete_function(*specs)
    record(label + " nodes", [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node])
    record(label + " shapes", [repr(t.shape) for t in cf.outputs])


s = tf.TensorSpec([4, 3], tf.float32)
nodes("cumsum", lambda x: tf.math.cumsum(x, axis=1, exclusive=True, reverse=True), s)
nodes("top_k", lambda x: tf.math.top_k(x, 2), s)
nodes("top_k unknown last dim", lambda x: tf.math.top_k(x, 2), tf.TensorSpec([4, None], tf.float32))
nodes("sort", lambda x: tf.sort(x), s)
nodes("sort descending axis 0", lambda x: tf.sort(x, axis=0, direction="DESCENDING"), s)
nodes("argsort", lambda x: tf.argsort(x), s)
nodes("argsort int", lambda x: tf.argsort(x), tf.TensorSpec([5], tf.int32))
nodes("sort uint8", lambda x: tf.sort(x), tf.TensorSpec([5], tf.uint8))


@tf.function
def f(x):
    return tf.sort(x), tf.argsort(x, direction="DESCENDING"), tf.math.cumsum(x, 1)


call("sort, argsort, cumsum in tf.function", f, m)

graph_errors = {
    "top_k k too big": lambda x: tf.math.top_k(x, 5),
    "top_k k negative": lambda x: tf.math.top_k(x, -1),
    "top_k k vector": lambda x: tf.math.top_k(x, [1]),
    "squared_difference shapes": lambda x: tf.math.squared_difference(x, tf.constant([1., 2.])),
    "cumsum axis 5 (not checked while tracing)": lambda x: tf.math.cumsum(x, 5),
}
for name, fn in graph_errors.items():
    g = tf.function(fn, autograph=False)
    attempt(name + " in a graph", lambda g=g: [t.shape for t in g.get_concrete_function(
        tf.TensorSpec([4, 3], tf.float32)).outputs])
attempt("top_k of a scalar in a graph", lambda: tf.function(lambda x: tf.math.top_k(x, 1), autograph=False)
        .get_concrete_function(tf.TensorSpec([], tf.float32)))
