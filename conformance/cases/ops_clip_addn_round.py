"""Ops: tf.clip_by_value (Minimum "clip_by_value/Minimum", then Maximum named "clip_by_value"; a bound that broadcasts the input is a ValueError), tf.add_n (AddN; one input returned as is; inputs merged from the last), tf.sign (NaN kept, -0.0 to 0.0), tf.floor, tf.math.round (half to even; integers returned unchanged, operand converted as "x")."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function
def f(x, y):
    return (tf.clip_by_value(x, 0.0, 1.0), tf.clip_by_value(x, y, 2.0), tf.add_n([x, y]), tf.add_n([x, y, x]),
            tf.add_n([x]), tf.sign(x), tf.floor(x), tf.math.round(x), tf.round(x), tf.math.add_n([x, y]))


@tf.function
def g(x):
    return tf.clip_by_value(x, 0, 5), tf.sign(x), tf.add_n([x, x]), tf.math.round(x)


@tf.function(autograph=False)
def hosts(x):
    return tf.math.round([1.5, 2.5]), tf.sign([1.5, -2.5]), tf.floor([1.5, -2.5]), tf.clip_by_value([1.0, 2.0], x, 3.0)


nan = float("nan")
call("f", f, tf.constant([-1.5, 0.5, 2.5, nan, -0.0, 1.5]), tf.constant([0.25, 0.5, 0.75, 1.0, -1.0, 3.0]))
record("f nodes", nodes(f.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32))))
call("g", g, tf.constant([-3, 0, 4, 9]))
record("g nodes", nodes(g.get_concrete_function(tf.TensorSpec([None], tf.int32))))
call("hosts", hosts, tf.constant([0.0, 2.5]))
record("hosts nodes", nodes(hosts.get_concrete_function(tf.TensorSpec([2], tf.float32))))
call("sign", lambda: tf.sign(tf.constant([-2.0, -0.0, 0.0, 3.0, nan, float("inf"), -1.0, float("-inf"), nan])))
call("sign int", lambda: tf.sign(tf.constant([-2, 0, 3], tf.int8)))
call("floor", lambda: tf.floor(tf.constant([-1.5, -0.0, 0.5, 2.0, nan, -0.5], tf.float64)))
call("round", lambda: tf.math.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.0, nan, 1e20, 2.6, -2.6])))
call("round f64", lambda: tf.math.round(tf.constant([0.5, 2.5, -3.5, 4503599627370497.0], tf.float64)))
call("round int", lambda: tf.math.round(tf.constant([1, -2])))
call("clip nan", lambda: tf.clip_by_value(tf.constant([-1.0, 0.5, 2.0, nan, -0.0]), 0.0, 1.0))
call("clip min above max", lambda: tf.clip_by_value(tf.constant([1.0, 5.0]), 3.0, 2.0))
call("clip int", lambda: tf.clip_by_value(tf.constant([1, 5, -3]), 0, 2))
call("clip float bound of int", lambda: tf.clip_by_value(tf.constant([1, 5, -3]), 0.5, 2))
call("clip int bound of float", lambda: tf.clip_by_value(tf.constant([1.0, 5.0]), 0, 2))
call("clip broadcasting bound", lambda: tf.clip_by_value(tf.constant([[1.0, 5.0]]), [[0.0], [3.0]], 4.0))
call("clip int tensor bound", lambda: tf.clip_by_value(tf.constant([1.0, 5.0]), tf.constant(0, tf.int32), 2.0))
call("add_n ints", lambda: tf.add_n([tf.constant([1, 2]), tf.constant([3, 4]), tf.constant([5, 6])]))
call("add_n order", lambda: tf.add_n([tf.constant([1e8]), tf.constant([1.0]), tf.constant([-1e8]), tf.constant([1.0])]))
call("add_n host floats", lambda: tf.add_n([1.0, 2.0]))
call("add_n empty", lambda: tf.add_n([]))
call("add_n shapes", lambda: tf.add_n([tf.constant([1.0, 2.0]), tf.constant([1.0]), tf.constant([1.0])]))
call("add_n dtypes", lambda: tf.add_n([tf.constant([1.0, 2.0]), tf.constant([1, 2])]))


@tf.function(autograph=False)
def addn_rank(x):
    return tf.add_n([x, 1.0])


@tf.function(autograph=False)
def addn_merge(x):
    return tf.add_n([x, x, tf.constant([[1.0, 2.0, 3.0]])])


@tf.function(autograph=False)
def addn_dyn(x):
    return tf.add_n([x, tf.constant([1.0, 2.0, 3.0])])


@tf.function(autograph=False)
def clip_graph_bcast(x):
    return tf.clip_by_value(x, [0.0, 1.0, 2.0], 3.0)


@tf.function(autograph=False)
def clip_graph_float_bound(x):
    return tf.clip_by_value(x, 0, 3.0)


attempt("add_n rank", lambda: addn_rank.get_concrete_function(tf.TensorSpec([2], tf.float32)))
attempt("add_n merge", lambda: addn_merge.get_concrete_function(tf.TensorSpec([None, 2], tf.float32)))
record("add_n dynamic", [repr(t.shape) for t in addn_dyn.get_concrete_function(tf.TensorSpec(None, tf.float32)).outputs])
attempt("clip graph broadcast", lambda: clip_graph_bcast.get_concrete_function(tf.TensorSpec([2], tf.float32)))
attempt("clip graph float bound", lambda: clip_graph_float_bound.get_concrete_function(tf.TensorSpec([2], tf.int32)))
