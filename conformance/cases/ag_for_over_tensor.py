"""AutoGraph: `for` over a tensor unstacks it into a TensorArray (TensorListReserve + TensorListFromTensor before the loop, TensorListGetItem in the body); node names as TF names them for static and dynamic lengths; Tensor.__getitem__ with int and tensor indices (strided_slice/stack Const or Pack)."""


@tf.function
def rows(t):
    acc = tf.zeros([3])
    for row in t:
        acc = acc + row
    return acc


def nodes(cf):
    gd = cf.graph.as_graph_def()
    return [[n.name, n.op, list(n.input)] for n in gd.node]


def library_ops(cf):
    gd = cf.graph.as_graph_def()
    return sorted(n.op for f in gd.library.function for n in f.node_def)


m = tf.constant([[1., 2., 3.], [4., 5., 6.]])
call("rows 2x3", rows, m)
cf = rows.get_concrete_function(m)
record("rows nodes", nodes(cf))
record("rows library ops", library_ops(cf))
record("rows output shape", repr(cf.structured_outputs.shape))


@tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
def rows_until(t):
    acc = tf.zeros([3])
    for row in t:
        acc = acc + row
        if tf.reduce_sum(acc) > 100.0:
            break
    return acc


call("rows_until 4 rows of 30", rows_until, tf.ones([4, 3]) * 30.0)
call("rows_until 0 rows", rows_until, tf.zeros([0, 3]))
call("rows_until wrong width", rows_until, tf.zeros([2, 4]))
record("rows_until nodes", nodes(rows_until.get_concrete_function()))
count("rows_until traces", rows_until)


@tf.function
def digits(v):
    acc = tf.constant(0)
    for d in v:
        acc = acc * 10 + d
    return acc


call("digits", digits, tf.constant([3, 1, 4]))
record("digits nodes", nodes(digits.get_concrete_function(tf.constant([3, 1, 4]))))
call("digits of a scalar", digits, tf.constant(7))


@tf.function
def index(t, i):
    return t[i], t[i, 1:], t[1:i], t[..., tf.newaxis], t[-1], t[:, 0]


call("index", index, tf.constant([[1, 2, 3], [4, 5, 6]]), tf.constant(1))
record("index nodes", nodes(index.get_concrete_function(tf.constant([[1, 2, 3], [4, 5, 6]]),
                                                        tf.constant(1))))
attempt("index with a vector", lambda: tf.constant([1, 2])[tf.constant([0, 1])])
attempt("index with a float", lambda: tf.constant([1, 2])[1.5])
record("eager newaxis", tf.constant([1, 2])[tf.newaxis].shape.as_list())
