"""Ops: the run-time errors of TF 2.21's integer kernels and the axis checks of softmax and the
reductions, eagerly and in tf.function. Integer // and % by zero raise InvalidArgumentError
"Integer division by zero"; tf.truncatediv/truncatemod by zero an InternalError; tf.pow of
integers to a negative power "Integers to negative integer powers are not allowed"; the most
negative integer divided by -1 wraps around. A graph's run-time error is recorded without TF's
"Detected at node ... defined at" block, the Python stack that created the node (tfscope does not
keep it; see known_differences.md, err_runtime_in_graph)."""
import re


def without_creation_stack(e):
    msg = re.sub(r"Detected at node \S+ defined at \(most recent call last\):\n(?:.*\n)*?\n(?=\S)",
                 "", str(e))
    return f"{type(e).__name__}: {msg}"


def graph_error(label, fn, *args):
    try:
        record(label, fn(*args))
    except Exception as e:  # noqa: BLE001 - the error is what is recorded
        record(label, without_creation_stack(e))


a = tf.constant([7, -7, 3])
z = tf.constant([2, 0, -1])
attempt("int32 // 0", lambda: a // z)
attempt("int32 % 0", lambda: a % z)
attempt("scalar 1 // 0", lambda: tf.constant(1) // 0)
attempt("scalar 1 % 0", lambda: tf.constant(1) % 0)
attempt("int64 // 0", lambda: tf.constant([5], tf.int64) // tf.constant([0], tf.int64))
attempt("uint8 % 0", lambda: tf.constant([5], tf.uint8) % tf.constant([0], tf.uint8))
attempt("int8 // 0", lambda: tf.constant([5], tf.int8) // tf.constant([0], tf.int8))
attempt("truncatediv by 0", lambda: tf.truncatediv(a, z))
attempt("truncatemod by 0", lambda: tf.truncatemod(a, z))
attempt("tf.math.floordiv by 0", lambda: tf.math.floordiv(a, z))
attempt("tf.math.floormod by 0", lambda: tf.math.floormod(a, z))
attempt("pow(2, -1)", lambda: tf.pow(2, -1))
attempt("int pow, one negative exponent", lambda: tf.pow(tf.constant([2, 3]), tf.constant([2, -1])))
attempt("int ** -1", lambda: tf.constant([2, 3]) ** -1)
attempt("int64 pow negative", lambda: tf.pow(tf.constant([2], tf.int64), tf.constant([-3], tf.int64)))

# What does not fail: float division by zero, nonnegative powers (wrapping), INT_MIN / -1.
record("float // 0", tf.constant([1.0, -1.0, 0.0]) // 0.0)
record("float % 0", tf.constant([1.0, -1.0]) % 0.0)
record("truncatediv floats", tf.truncatediv(tf.constant([7.0, -7.0, 1.0]), tf.constant([2.0, 2.0, 0.0])))
record("truncatemod floats", tf.truncatemod(tf.constant([7.0, -7.0]), tf.constant([2.0, 2.0])))
record("int pow wraps", tf.pow(tf.constant([3, 2, 0, -2]), tf.constant([40, 31, 0, 3])))
record("int8 pow wraps", tf.pow(tf.constant([3, 2], tf.int8), tf.constant([5, 7], tf.int8)))
imin = tf.constant([-2**31], tf.int32)
record("INT_MIN // -1", imin // -1)
record("INT_MIN % -1", imin % -1)
record("INT_MIN truncatediv -1", tf.truncatediv(imin, tf.constant([-1])))
record("truncatediv, truncatemod signs", [tf.truncatediv(tf.constant([7, -7]), tf.constant([2, 2])),
                                          tf.truncatemod(tf.constant([7, -7]), tf.constant([2, -2]))])
record("floordiv, floormod signs", [tf.constant([-7, 7]) // tf.constant([2, -2]),
                                    tf.constant([-7, 7]) % tf.constant([2, -2])])

# Axis checks: softmax's in Python, the reductions' in the kernel (or the shape function).
attempt("softmax axis 4 of rank 1", lambda: tf.nn.softmax(tf.constant([1.0, 2.0]), axis=4))
attempt("softmax axis 1 of rank 1", lambda: tf.nn.softmax(tf.constant([1.0, 2.0]), axis=1))
attempt("softmax axis -3 of rank 2", lambda: tf.nn.softmax(tf.ones([2, 3]), axis=-3))
attempt("log_softmax axis 2 of rank 2", lambda: tf.nn.log_softmax(tf.ones([2, 3]), axis=2))
attempt("reduce_sum axis 3 of rank 1", lambda: tf.reduce_sum(tf.ones([2]), axis=3))
attempt("reduce_mean axis -3 of rank 2", lambda: tf.reduce_mean(tf.ones([2, 2]), axis=-3))
attempt("reduce_max duplicate axes", lambda: tf.reduce_max(tf.ones([2, 2]), axis=[1, -1]))
attempt("reduce_sum of a list, axis 3", lambda: tf.reduce_sum([1.0, 2.0], axis=3))
attempt("log_softmax of a scalar", lambda: tf.nn.log_softmax(tf.constant(1.0)))


@tf.function
def floordiv(x, y):
    return x // y


@tf.function
def floormod(x, y):
    return x % y


@tf.function
def power(x, y):
    return tf.pow(x, y)


@tf.function
def truncated(x, y):
    return tf.truncatediv(x, y)


@tf.function
def softmax_axis(x):
    return tf.nn.softmax(x, axis=4)


@tf.function
def reduce_axis(x):
    return tf.reduce_sum(x, axis=3)


graph_error("graph: int32 // 0", floordiv, a, z)
graph_error("graph: int32 % 0", floormod, a, z)
graph_error("graph: int pow negative", power, tf.constant([2, 3]), tf.constant([2, -1]))
graph_error("graph: truncatediv by 0", truncated, a, z)
graph_error("graph: int // ok", floordiv, a, tf.constant([2, 2, 2]))
attempt("graph: softmax axis 4", lambda: softmax_axis(tf.constant([1.0, 2.0])))
attempt("graph: reduce_sum axis 3", lambda: reduce_axis(tf.constant([1.0, 2.0])))
