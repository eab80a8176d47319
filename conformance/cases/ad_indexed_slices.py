"""Autodiff: the gradient of tf.gather is a tf.IndexedSlices (values, indices, dense_shape), as TF
2.21 builds it: for a variable (ResourceGather, an embedding) and for a watched tensor (GatherV2 on
axis 0), eagerly and in a tf.function (the gradient graph op for op); several gathers' gradients
concatenated, a gather's and a dense use's summed densely (UnsortedSegmentSum then AddN);
densified by tf.convert_to_tensor and by assign_sub; an embedding trained by scatter_sub; the
class's attributes, str and errors; tf.math.unsorted_segment_sum."""
from cases._fn_graph import graph


def slices(g):
    """What an IndexedSlices holds, and what TF's class says about itself."""
    return {
        "type": type(g).__name__,
        "values": g.values,
        "indices": g.indices,
        "dense_shape": g.dense_shape,
        "dtype": repr(g.dtype),
        "shape": repr(g.shape),
        "str": str(g),
        "dense": tf.convert_to_tensor(g),
    }


table = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]


def variable_gather():
    emb = tf.Variable(table, name="emb")
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(emb, [2, 0, 2]) * 2.0)
    return slices(tape.gradient(y, emb))


call("gather of a variable eagerly", variable_gather)


def tensor_gather():
    x = tf.constant(table)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(x, [[3, 0], [1, 1]]) * tf.constant([[1.0, 10.0]]))
    return slices(tape.gradient(y, x))


call("gather of a tensor eagerly (2-d indices)", tensor_gather)


def two_gathers():
    emb = tf.Variable(table, name="emb")
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(emb, [0])) + tf.reduce_sum(tf.gather(emb, [1, 1]) * 3.0)
    return slices(tape.gradient(y, emb))


call("two gathers: slices concatenated", two_gathers)


def gather_and_dense():
    emb = tf.Variable(table, name="emb")
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(emb, [0, 3])) + tf.reduce_sum(emb * 0.5)
    g = tape.gradient(y, emb)
    return isinstance(g, tf.IndexedSlices), g


call("a gather and a dense use: summed densely", gather_and_dense)


def sparse_updates():
    emb = tf.Variable(table, name="emb")
    g = tf.IndexedSlices(tf.constant([[1.0, 1.0], [0.5, 0.5]]), tf.constant([2, 2]),
                         tf.constant([4, 2]))
    emb.scatter_sub(g)
    after_sub = emb.numpy()
    emb.scatter_add(g)
    emb.scatter_update(tf.IndexedSlices(tf.constant([[9.0, 9.0]]), tf.constant([1])))
    after_update = emb.numpy()
    emb.assign_sub(g)
    return after_sub, after_update, emb.numpy()


call("scatter_sub, scatter_add, scatter_update, assign_sub", sparse_updates)


def constructed():
    s = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))
    bare = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]))
    return str(s), repr(s.shape), str(bare), bare.dense_shape, repr(bare.shape), str(-s)


call("constructed IndexedSlices", constructed)
call("convert without dense_shape",
     lambda: tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]))))
emb0 = tf.Variable(table, name="emb0")
call("scatter_sub of a tensor", lambda: emb0.scatter_sub(tf.constant([[1.0, 1.0]])))
call("scatter_sub out of range",
     lambda: emb0.scatter_sub(tf.IndexedSlices(tf.constant([[1.0, 1.0]]), tf.constant([7]))))
call("gather of a variable out of range", lambda: tf.gather(emb0, [4]))
call("sparse_read", lambda: emb0.sparse_read([3, 1]))
call("format of a tensor", lambda: (f"{tf.constant([[1.0, 2.0]])}", "{:>12}".format(tf.constant(3))))

call("unsorted_segment_sum",
     lambda: tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0, 4.0]),
                                          tf.constant([0, 2, -1, 0]), 3))
call("unsorted_segment_sum rows",
     lambda: tf.math.unsorted_segment_sum(tf.constant(table), tf.constant([1, 0, 1, 1]), 2))
call("unsorted_segment_sum id out of range",
     lambda: tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0]), tf.constant([0, 5]), 3))
call("unsorted_segment_sum shape mismatch",
     lambda: tf.math.unsorted_segment_sum(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1]), 3))

# An embedding trained in a tf.function: the gradient of the gathered rows is an IndexedSlices,
# applied by scatter_sub; its values, indices and dense_shape are returned.
emb = tf.Variable(table, name="emb")


@tf.function
def embedding_step(ids):
    with tf.GradientTape() as tape:
        e = tf.gather(emb, ids)
        loss = tf.reduce_sum(e * e)
    g = tape.gradient(loss, emb)
    emb.scatter_sub(tf.IndexedSlices(0.25 * g.values, g.indices, g.dense_shape))
    return loss, g.values, g.indices, g.dense_shape


ids = tf.constant([1, 3, 1])
call("embedding step 1", embedding_step, ids)
call("embedding step 2", embedding_step, ids)
record("embedding after two steps", emb.numpy())
count("embedding_step count", embedding_step)
record("embedding_step graph", graph(embedding_step.get_concrete_function(ids)))


@tf.function
def dense_step(ids):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(emb, ids) * 2.0)
    g = tape.gradient(loss, emb)
    emb.assign_sub(tf.convert_to_tensor(g))
    return tf.convert_to_tensor(g)


call("densified in a tf.function", dense_step, ids)
record("dense_step graph", graph(dense_step.get_concrete_function(ids)))


@tf.function
def tensor_step(x, idx):
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.gather(x, idx) * 2.0)
    g = tape.gradient(loss, x)
    return g.values, g.indices, g.dense_shape


x0 = tf.constant(table)
call("gather of a tensor in a tf.function", tensor_step, x0, tf.constant([1, 1, 0]))
record("tensor_step graph", graph(tensor_step.get_concrete_function(x0, tf.constant([1, 1, 0]))))
