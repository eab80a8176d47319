"""Ops: tf.logical_and/or/not and tf.slice: node names ("LogicalAnd", "LogicalOr/y" for a host operand, "and"/"or" for the operators, "Slice/begin", "Slice/size"), values, and TF's errors (host operands convert to bool; shape errors in graphs)."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function
def logic(x, y):
    return (tf.logical_and(x, y), tf.logical_or(x, True), tf.logical_not(x), tf.math.logical_and(x, y),
            x & y, x | y, ~x)


@tf.function
def sl(x):
    return tf.slice(x, [0, 1], [2, -1]), tf.slice(x, tf.constant([1, 0]), [1, 2])


b = tf.constant([[True], [False]])
c = tf.constant([True, False, True])
call("logic", logic, b, c)
record("logic nodes", nodes(logic.get_concrete_function(tf.TensorSpec([2], tf.bool), tf.TensorSpec([2], tf.bool))))
call("slice", sl, tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))
record("slice nodes", nodes(sl.get_concrete_function(tf.TensorSpec([3, 4], tf.float32))))
record("slice shapes", [repr(t.shape) for t in sl.get_concrete_function(tf.TensorSpec([3, None], tf.float32)).outputs])
call("logical_and lists", lambda: tf.logical_and([True, False], [True, True]))
call("logical_not list", lambda: tf.logical_not([True, False]))
call("logical_and ints", lambda: tf.logical_and(1, 2))
call("logical_and int tensor", lambda: tf.logical_and(tf.constant([1, 2]), tf.constant([True, False])))
call("logical_or shapes", lambda: tf.logical_or(tf.constant([True, False]), tf.constant([True, False, True])))
call("slice list", lambda: tf.slice([1, 2, 3], [1], [2]))
call("slice int64 begin", lambda: tf.slice(tf.constant([1, 2, 3]), tf.constant([1], tf.int64), [2]))


@tf.function(autograph=False)
def and_bad_shape(x):
    return tf.logical_and(x, tf.constant([True, False, True]))


@tf.function(autograph=False)
def and_host_int(x):
    return tf.logical_and(x, 1)


@tf.function(autograph=False)
def not_float(x):
    return tf.logical_not(x)


@tf.function(autograph=False)
def slice_rank(x):
    return tf.slice(x, [0], [2])


attempt("and bad shape", lambda: and_bad_shape.get_concrete_function(tf.TensorSpec([2], tf.bool)))
attempt("and host int", lambda: and_host_int.get_concrete_function(tf.TensorSpec([2], tf.bool)))
attempt("not float", lambda: not_float.get_concrete_function(tf.TensorSpec([2], tf.float32)))
attempt("slice rank", lambda: slice_rank.get_concrete_function(tf.TensorSpec([3, 4], tf.float32)))
