"""Ops: tf.reduce_any / tf.reduce_all (Any/All with "<Op>/reduction_indices", axis None a "Const" range; empty reductions false/true) and tf.argmin (ArgMin with "ArgMin/dimension"; NaN skipped, the first minimum kept)."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function
def f(b, x):
    return (tf.reduce_any(b), tf.reduce_all(b, axis=0), tf.reduce_any(b, 1, keepdims=True), tf.reduce_all(b, axis=[0, 1]),
            tf.math.reduce_any(b, axis=-1), tf.argmin(x, 1), tf.argmin(x), tf.math.argmin(x, axis=0, output_type=tf.int32))


nan = float("nan")
B = tf.constant([[True, False, True], [False, False, True]])
call("f", f, B, tf.constant([[3.0, 1.0, 1.0], [nan, 2.0, -1.0]]))
record("nodes", nodes(f.get_concrete_function(tf.TensorSpec([2, 3], tf.bool), tf.TensorSpec([2, 3], tf.float32))))
record("unknown rank nodes", nodes(f.get_concrete_function(tf.TensorSpec(None, tf.bool), tf.TensorSpec(None, tf.float32))))
record("unknown rank shapes", [repr(t.shape) for t in f.get_concrete_function(tf.TensorSpec(None, tf.bool), tf.TensorSpec(None, tf.float32)).outputs])
call("any empty", lambda: tf.reduce_any(tf.zeros([0, 2], tf.bool), 0))
call("all empty", lambda: tf.reduce_all(tf.zeros([0, 2], tf.bool), 0))
call("all keepdims", lambda: tf.reduce_all(B, [0, 1], keepdims=True))
call("any list", lambda: tf.reduce_any([True, False]))
call("any int tensor", lambda: tf.reduce_any(tf.constant([1, 0])))
call("any int list", lambda: tf.reduce_any([1, 0]))
call("any bad axis", lambda: tf.reduce_any(B, 2))
call("all bad axis", lambda: tf.reduce_all(B, -3))
call("argmin nan", lambda: tf.argmin(tf.constant([nan, 2.0, nan, 1.0])))
call("argmin all nan", lambda: tf.argmin(tf.constant([nan, nan])))
call("argmin zeros", lambda: [tf.argmin(tf.constant([0.0, -0.0])), tf.argmin(tf.constant([-0.0, 0.0]))])
call("argmin inf", lambda: tf.argmin(tf.constant([float("inf"), float("inf")])))
call("argmin ties", lambda: tf.argmin(tf.constant([5, 3, 3, 7], tf.uint8)))
call("argmin bool", lambda: tf.argmin(tf.constant([True, False, False])))
call("argmin bad axis", lambda: tf.argmin(tf.constant([[1, 2]]), 2))
call("argmin empty axis", lambda: tf.argmin(tf.zeros([0, 2]), 0))
call("argmin empty other axis", lambda: tf.argmin(tf.zeros([2, 0]), 0))
call("argmin scalar", lambda: tf.argmin(tf.constant(3.0)))
call("argmin list", lambda: tf.argmin([4, 1, 2], output_type=tf.int32))


@tf.function(autograph=False)
def any_int(x):
    return tf.reduce_any(x)


attempt("graph any int", lambda: any_int.get_concrete_function(tf.TensorSpec([2, 3], tf.int32)))
