"""tf.debugging assertions, tf.Assert, tf.ensure_shape and check_numerics as TF 2.21: eager
checks with TF's messages (the differing indices, "First 2 elements of x:", the static rank
text), trace-time failures when both values are constants, and in a tf.function the Assert op
with TF's data and node names ("assert_equal_1/Assert/Assert/data_0"), the no-op nodes of a
static rank check, the automatic control dependencies between the stateful checks; the Assert
kernel's summary of its data (TF's legacy Tensor::SummarizeValue)."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


# ---- eager ----
D = tf.debugging
attempt("equal", lambda: D.assert_equal(tf.constant([1, 2]), tf.constant([1, 2])))
attempt("equal fails", lambda: D.assert_equal(tf.constant([1, 2]), tf.constant([1, 3])))
attempt("equal fails with a message", lambda: D.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]), message="boom"))
attempt("equal fails summarize 1", lambda: D.assert_equal(tf.constant([1, 2, 3]), tf.constant([0, 0, 0]), summarize=1))
attempt("equal broadcast", lambda: D.assert_equal(tf.constant([1, 1]), 1))
attempt("equal broadcast fails", lambda: D.assert_equal(tf.constant([1, 2]), 1))
attempt("equal scalars fail", lambda: D.assert_equal(tf.constant(1), tf.constant(2)))
attempt("equal shapes", lambda: D.assert_equal(tf.constant([1, 2]), tf.constant([1, 2, 3])))
attempt("greater fails", lambda: D.assert_greater(tf.constant([1., 2.]), tf.constant([1., 1.])))
attempt("less fails", lambda: D.assert_less(tf.constant([1, 2]), 2))
attempt("less", lambda: D.assert_less(tf.constant([1, 2]), 3))
attempt("less_equal fails", lambda: D.assert_less_equal(tf.constant([[1, 5], [2, 3]]), tf.constant([[1, 2], [2, 2]])))
attempt("greater_equal", lambda: D.assert_greater_equal(tf.constant([3, 3]), 3))
attempt("none_equal fails", lambda: D.assert_none_equal(tf.constant([1, 2]), tf.constant([3, 2])))
attempt("rank", lambda: D.assert_rank(tf.constant([1, 2]), 1))
attempt("rank fails", lambda: D.assert_rank(tf.constant([1, 2]), 2))
attempt("rank fails with a message", lambda: D.assert_rank(tf.constant([1, 2]), 2, message="hey"))
attempt("all_finite fails", lambda: D.assert_all_finite(tf.constant([1., float("nan")]), "not finite"))
call("all_finite", lambda: D.assert_all_finite(tf.constant([1., 2.]), "not finite"))
attempt("check_numerics inf", lambda: D.check_numerics(tf.constant([1., float("inf")]), "chk"))
attempt("check_numerics nan and inf", lambda: D.check_numerics(tf.constant([float("nan"), float("inf")], tf.float64), "chk"))
call("check_numerics", lambda: D.check_numerics(tf.constant([1., 2.]), "chk"))
attempt("Assert fails", lambda: tf.Assert(tf.constant(False), ["x is", tf.constant([1, 2])]))
attempt("Assert", lambda: tf.Assert(tf.constant(True), ["x is", tf.constant([1, 2])]))
attempt("Assert on a Python bool", lambda: tf.Assert(False, ["x"]))
attempt("Assert float data", lambda: tf.Assert(tf.constant(False), [tf.constant([1.5, 2.5])]))
attempt("Assert long data", lambda: tf.Assert(False, [tf.range(10)]))
attempt("Assert long data summarize 2", lambda: tf.Assert(False, [tf.range(10)], summarize=2))
attempt("Assert 2-d data", lambda: tf.Assert(False, [tf.constant([[1, 2], [3, 4]])]))
attempt("Assert string data", lambda: tf.Assert(False, ["a", tf.constant(["b", "c"])]))
call("ensure_shape", lambda: tf.ensure_shape(tf.zeros([2, 3]), [2, None]))
attempt("ensure_shape fails", lambda: tf.ensure_shape(tf.zeros([2, 3]), [3, None]))
attempt("ensure_shape rank", lambda: tf.ensure_shape(tf.zeros([2, 3]), [2]))


# ---- in a tf.function ----
@tf.function
def checks(x, y):
    tf.debugging.assert_equal(x, y, message="xy")
    tf.debugging.assert_greater(x, 0)
    z = tf.ensure_shape(x, [None])
    tf.debugging.assert_rank(x, 1)
    return tf.debugging.check_numerics(tf.cast(z, tf.float32), "num") * 2


call("checks pass", checks, tf.constant([1, 2]), tf.constant([1, 2]))
record("checks nodes", nodes(checks.get_concrete_function(tf.constant([1, 2]), tf.constant([1, 2]))))
count("checks traces", checks)


@tf.function
def static_rank(x):
    tf.debugging.assert_rank(x, 2)
    return x


call("static rank fails at trace", static_rank, tf.constant([1, 2]))


@tf.function
def static_values(x):
    tf.debugging.assert_equal(tf.constant(1), tf.constant(2))
    return x


call("static values fail at trace", static_values, tf.constant([1, 2]))


@tf.function
def static_values_pass(x):
    tf.debugging.assert_less(tf.constant([1, 2]), 3)
    return x


call("static values pass", static_values_pass, tf.constant(1))
record("static values pass nodes", nodes(static_values_pass.get_concrete_function(tf.constant(1))))


@tf.function(input_signature=[tf.TensorSpec([None, 3])])
def ensured(x):
    return tf.ensure_shape(x, [2, 3])


call("ensured", ensured, tf.zeros([2, 3]))
cf = ensured.get_concrete_function()
record("ensured nodes", nodes(cf))
record("ensured output shape", repr(cf.structured_outputs.shape))


@tf.function
def ensured_bad(x):
    return tf.ensure_shape(x, [3])


call("ensure_shape incompatible at trace", ensured_bad, tf.zeros([2]))


@tf.function
def positive(x):
    tf.Assert(tf.reduce_all(x > 0), ["x must be positive:", x], summarize=5)
    return x + 1


call("Assert passes", positive, tf.constant([1, 2]))
record("Assert nodes", nodes(positive.get_concrete_function(tf.constant([1, 2]))))

# ---- the Assert kernel's summary of its data ----
R = tf.raw_ops
A = lambda data, s=3: R.Assert(condition=False, data=data, summarize=s)
call("kernel 2x2", lambda: A([tf.constant([[1, 2], [3, 4]])]))
call("kernel 2x2 summarize 10", lambda: A([tf.constant([[1, 2], [3, 4]])], 10))
call("kernel vector of 10", lambda: A([tf.range(10)]))
call("kernel vector of 10 summarize -1", lambda: A([tf.range(10)], -1))
call("kernel scalar", lambda: A([tf.constant(5)]))
call("kernel floats", lambda: A([tf.constant([1.5, 2.0, 1e-8, 123456789.0, 1.0000001])], 10))
call("kernel double", lambda: A([tf.constant([0.1, 1.0 / 3.0], tf.float64)]))
call("kernel bools", lambda: A([tf.constant([True, False])]))
call("kernel strings", lambda: A([tf.constant(["ab", "c\n"]), tf.constant("x")]))
call("kernel 3-d", lambda: A([tf.reshape(tf.range(8), [2, 2, 2])], 10))
call("kernel 3-d summarize 3", lambda: A([tf.reshape(tf.range(8), [2, 2, 2])], 3))
call("kernel empty", lambda: A([tf.zeros([0])]))
call("kernel int64", lambda: A([tf.constant([1], tf.int64)]))
call("kernel vector condition", lambda: R.Assert(condition=[True, False], data=[1]))
call("kernel true", lambda: R.Assert(condition=True, data=[1]))
