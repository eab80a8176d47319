"""tf.debugging.assert_shapes (and assert_rank_at_least / assert_rank_in, which it uses): TF's
static checks, eagerly and at trace time, with TF's ValueError texts (explicit sizes, a symbol
shared across tensors, `...`/`*` for leading dims, `.`/None for any size, a scalar as rank 1 of
size 1, a non-iterable or misplaced `...`); the run-time InvalidArgumentError
of a symbol whose size is only known when the function runs; return values and trace counts."""
x = tf.zeros([2, 3])
y = tf.zeros([3, 4])
s = tf.constant(1.0)


def check(label, shapes, **kw):
    attempt(label, lambda: tf.debugging.assert_shapes(shapes, **kw))


check("matching", [(x, ("N", "D")), (y, ("D", 4))])
check("explicit size wrong", [(x, (2, 4))])
check("symbol mismatch", [(x, ("N", "D")), (y, ("N", 4))])
check("rank wrong", [(x, ("N",))])
check("rank wrong 3", [(x, ("N", "D", "E"))])
check("ellipsis", [(x, (..., 3)), (y, ("*", "D"))])
check("ellipsis rank too low", [(x, (..., "A", "B", "C"))])
check("ellipsis size wrong", [(x, (..., 4))])
check("any size", [(x, (".", None)), (y, (None, "."))])
check("scalar as size 1", [(s, ()), (s, (1,)), (x, ("N", "D"))])
check("scalar wrong", [(s, (2,))])

check("with message", [(x, (5, 3))], message="bad input")
check("not iterable", [(x, 3)])
check("misplaced ellipsis", [(x, ("N", ...))])
check("none shape skipped", [(x, None), (y, ("D", 4))])
check("numpy input", [(np.zeros([2, 2], np.float32), ("A", "A"))])
attempt("rank_at_least ok", lambda: tf.debugging.assert_rank_at_least(x, 1))
attempt("rank_at_least fails", lambda: tf.debugging.assert_rank_at_least(x, 3))
attempt("rank_in ok", lambda: tf.debugging.assert_rank_in(x, [1, 2]))
attempt("rank_in fails", lambda: tf.debugging.assert_rank_in(x, [0, 1], message="m"))


@tf.function
def traced(a, b):
    tf.debugging.assert_shapes([(a, ("N", "D")), (b, ("D", 4))])
    return tf.matmul(a, b)


call("traced ok", traced, x, y)
attempt("traced static failure", lambda: traced(x, tf.zeros([2, 4])))
count("traced traces", traced)


@tf.function(input_signature=[tf.TensorSpec([None, None]), tf.TensorSpec([None, 4])])
def dynamic(a, b):
    tf.debugging.assert_shapes([(a, ("N", "D")), (b, ("D", 4))])
    return tf.reduce_sum(a) + tf.reduce_sum(b)


call("dynamic ok", dynamic, x, y)
attempt("dynamic failure", lambda: dynamic(x, tf.zeros([2, 4])))
record("dynamic ops", sorted(set(n.op for n in dynamic.get_concrete_function().graph.as_graph_def().node)))
