"""tf.debugging checks failing while a tf.function runs: the Assert kernel's message
("assertion failed: [xy] [Condition x == y did not hold element-wise:] [x (x:0) = ] [1 2] ..."),
CheckNumerics and EnsureShape at run time, and the graphs of checks on float data (TF guards
those Asserts in an "AssertGuard" cond) and of assert_all_finite."""


def nodes(cf):
    return [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node]


@tf.function
def checks(x, y):
    tf.debugging.assert_equal(x, y, message="xy")
    tf.debugging.assert_greater(x, 0)
    return x * 2


call("assert_equal fails", checks, tf.constant([1, 2]), tf.constant([1, 3]))
call("assert_greater fails", checks, tf.constant([-1, 2]), tf.constant([-1, 2]))


@tf.function
def positive(x):
    tf.Assert(tf.reduce_all(x > 0), ["x must be positive:", x], summarize=5)
    return x + 1


call("Assert fails", positive, tf.constant([1, -2, 3, 4, 5, 6, 7]))


@tf.function(input_signature=[tf.TensorSpec([None, 3])])
def ensured(x):
    return tf.ensure_shape(x, [2, 3])


call("ensure_shape fails", ensured, tf.zeros([4, 3]))


@tf.function
def finite(x):
    return tf.debugging.assert_all_finite(x, "bad values") * 2


call("assert_all_finite", finite, tf.constant([1., 2.]))
call("assert_all_finite fails", finite, tf.constant([1., float("inf")]))
record("assert_all_finite nodes", nodes(finite.get_concrete_function(tf.constant([1., 2.]))))


@tf.function
def float_check(x):
    tf.debugging.assert_greater(x, 0.)
    return x * 2


call("float assert_greater", float_check, tf.constant([1., 2.]))
call("float assert_greater fails", float_check, tf.constant([-1., 2.]))
record("float assert_greater nodes", nodes(float_check.get_concrete_function(tf.constant([1., 2.]))))
