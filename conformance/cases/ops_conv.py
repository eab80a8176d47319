"""Ops: tf.nn.conv2d, conv1d, depthwise_conv2d, conv2d_transpose, max_pool2d and avg_pool2d:
values (inputs of small integers and halves, whose sums are exact in float32 in any order),
static shapes, the ops TF 2.21 builds in a tf.function, and the errors of the shape functions
and of TF's Python argument handling."""
def grid(shape, scale=1.0, mod=7):
    i = np.arange(int(np.prod(shape)), dtype=np.int64)
    return ((i * 5 % mod - mod // 2) * scale).astype(np.float32).reshape(shape)


x = tf.constant(grid([2, 6, 7, 3]))
w = tf.constant(grid([3, 3, 3, 4], 0.5, 5))
record("conv2d SAME", tf.nn.conv2d(x, w, 1, "SAME"))
record("conv2d VALID strides 2", tf.nn.conv2d(x, w, 2, "VALID"))
record("conv2d strides [1, 2] dilations 2", tf.nn.conv2d(x, w, [1, 2], "SAME", dilations=2))
record("conv2d explicit padding", tf.nn.conv2d(x, w, [1, 1, 2, 1], [[0, 0], [1, 2], [0, 1], [0, 0]]))
record("conv2d 1x1", tf.nn.conv2d(x, tf.constant(grid([1, 1, 3, 2])), 1, "VALID"))
record("conv2d whole image", tf.nn.conv2d(x, tf.constant(grid([6, 7, 3, 2], 0.5)), 1, "VALID"))
record("conv2d grouped", tf.nn.conv2d(tf.constant(grid([1, 5, 5, 4])), tf.constant(grid([3, 3, 2, 6])), 1, "SAME"))
record("conv2d float64", tf.nn.conv2d(tf.constant(grid([1, 4, 4, 2]), tf.float64), tf.constant(grid([2, 2, 2, 1]), tf.float64), 1, "SAME"))
record("conv2d int32", tf.nn.conv2d(tf.constant(grid([1, 4, 4, 2]).astype(np.int32)), tf.constant(grid([2, 2, 2, 3]).astype(np.int32)), 1, "VALID"))
record("conv1d", tf.nn.conv1d(tf.constant(grid([2, 9, 3])), tf.constant(grid([3, 3, 2], 0.5)), 2, "SAME"))
record("depthwise_conv2d", tf.nn.depthwise_conv2d(x, tf.constant(grid([3, 3, 3, 2], 0.5)), [1, 1, 1, 1], "SAME"))
record("depthwise_conv2d strides 2 explicit", tf.nn.depthwise_conv2d(x, tf.constant(grid([2, 2, 3, 1])), [1, 2, 2, 1], [[0, 0], [1, 1], [0, 1], [0, 0]]))
record("conv2d_transpose SAME", tf.nn.conv2d_transpose(tf.constant(grid([1, 3, 3, 4])), w, [1, 6, 6, 3], 2, "SAME"))
record("conv2d_transpose VALID", tf.nn.conv2d_transpose(tf.constant(grid([2, 3, 3, 4])), w, [2, 7, 7, 3], 2, "VALID"))
record("max_pool2d VALID", tf.nn.max_pool2d(x, 2, 2, "VALID"))
record("max_pool2d SAME 3x3", tf.nn.max_pool2d(x, 3, 2, "SAME"))
record("max_pool2d explicit", tf.nn.max_pool2d(x, [2, 3], 1, [[0, 0], [1, 0], [1, 1], [0, 0]]))
record("max_pool2d int32", tf.nn.max_pool2d(tf.constant(grid([1, 4, 4, 2]).astype(np.int32)), 2, 1, "VALID"))
record("max_pool2d of -inf", tf.nn.max_pool2d(tf.fill([1, 2, 2, 1], -np.inf), 2, 1, "VALID"))
record("avg_pool2d VALID", tf.nn.avg_pool2d(x, 2, 2, "VALID"))
record("avg_pool2d SAME counts only the image", tf.nn.avg_pool2d(x, 3, 2, "SAME"))
record("avg_pool2d float64", tf.nn.avg_pool2d(tf.constant(grid([1, 5, 5, 2]), tf.float64), 2, 1, "SAME"))
record("avg_pool2d window larger than the image", tf.nn.avg_pool2d(x, 7, 1, "VALID").shape)

attempt("strides of length 3", lambda: tf.nn.conv2d(x, w, [1, 2, 2], "SAME"))
attempt("padding list of size 3", lambda: tf.nn.conv2d(x, w, 1, [[0, 0], [1, 1], [2, 0]]))
attempt("padding EXPLICIT as a string", lambda: tf.nn.conv2d(x, w, 1, "EXPLICIT"))
attempt("avg_pool2d padding list", lambda: tf.nn.avg_pool2d(x, 2, 1, [[0, 0], [1, 1], [1, 1], [0, 0]]))
attempt("ksize of length 3", lambda: tf.nn.max_pool2d(x, [1, 2, 2], 1, "VALID"))


@tf.function
def convs(x, w, b):
    y = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b))
    p = tf.nn.max_pool2d(y, 2, 2, "VALID")
    q = tf.nn.avg_pool2d(y, 2, 2, "SAME")
    return y, p, q


b = tf.constant([0.5, -1.0, 0.0, 2.0])
call("conv bias relu pools", convs, x, w, b)
graph_ops("ops conv bias relu pools", convs.get_concrete_function(x, w, b))
unknown = convs.get_concrete_function(tf.TensorSpec([None, None, None, 3]), tf.TensorSpec([3, 3, 3, 4]), tf.TensorSpec([4]))
record("shapes with unknown dims", [o.shape for o in unknown.outputs])


@tf.function
def others(x, w1, wd, wt):
    return (tf.nn.conv1d(x[:, 0], w1, 1, "VALID"),
            tf.nn.depthwise_conv2d(x, wd, [1, 1, 1, 1], "SAME"),
            tf.nn.conv2d_transpose(x, wt, [2, 12, 14, 5], 2, "SAME"))


w1 = tf.constant(grid([2, 3, 4], 0.5))
wd = tf.constant(grid([3, 3, 3, 2]))
wt = tf.constant(grid([3, 3, 5, 3], 0.5))
call("conv1d depthwise transpose", others, x, w1, wd, wt)
graph_ops("ops conv1d depthwise transpose", others.get_concrete_function(x, w1, wd, wt))
record("static shapes", [o.shape for o in others.get_concrete_function(x, w1, wd, wt).outputs])


def graph_error(label, fn, *specs):
    try:
        tf.function(fn, autograph=False).get_concrete_function(*specs)
        record(label, "no error")
    except Exception as e:  # noqa: BLE001
        record(label, f"{type(e).__name__}: {e}")


s4 = tf.TensorSpec([1, 5, 5, 3])
graph_error("graph: input depth not a multiple", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 4, 2]), 1, "SAME"), s4)
graph_error("graph: groups do not divide the output depth", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 2, 3]), 1, "SAME"), tf.TensorSpec([1, 5, 5, 4]))
graph_error("graph: rank 3 input", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2]), 1, "SAME"), tf.TensorSpec([5, 5, 3]))
graph_error("graph: filter larger than the input", lambda a: tf.nn.conv2d(a, tf.ones([7, 7, 3, 2]), 1, "VALID"), s4)
graph_error("graph: stride 0", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2]), 0, "SAME"), s4)
graph_error("graph: bad padding", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2]), 1, "FOO"), s4)
graph_error("graph: explicit batch padding", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2]), 1, [[1, 0], [1, 1], [2, 0], [0, 0]]), s4)
graph_error("graph: negative explicit padding", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2]), 1, [[0, 0], [-1, 1], [2, 0], [0, 0]]), s4)
graph_error("graph: dtype mismatch", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2], tf.float64), 1, "SAME"), s4)
graph_error("graph: int64 conv2d", lambda a: tf.nn.conv2d(a, tf.ones([3, 3, 3, 2], tf.int64), 1, "SAME"), tf.TensorSpec([1, 5, 5, 3], tf.int64))
graph_error("graph: max_pool2d window too large", lambda a: tf.nn.max_pool2d(a, 6, 1, "VALID"), s4)
graph_error("graph: max_pool2d stride 0", lambda a: tf.nn.max_pool2d(a, 2, 0, "VALID"), s4)
graph_error("graph: max_pool2d bad padding", lambda a: tf.nn.max_pool2d(a, 2, 2, "FOO"), s4)
graph_error("graph: avg_pool2d window too large", lambda a: tf.nn.avg_pool2d(a, 6, 1, "VALID"), s4)
graph_error("graph: avg_pool2d int32", lambda a: tf.nn.avg_pool2d(a, 2, 1, "VALID"), tf.TensorSpec([1, 5, 5, 3], tf.int32))
graph_error("graph: depthwise depth mismatch", lambda a: tf.nn.depthwise_conv2d(a, tf.ones([3, 3, 4, 2]), [1, 1, 1, 1], "SAME"), s4)
graph_error("graph: conv2d_transpose depth mismatch", lambda a: tf.nn.conv2d_transpose(a, tf.ones([3, 3, 2, 4]), [1, 10, 10, 2], 2, "SAME"), s4)


@tf.function
def named(x, w):
    a = tf.nn.conv2d(x, w, 1, "SAME", name="conv1")
    b = tf.nn.conv2d(a, w, 1, "SAME", name="conv1")
    c = tf.nn.max_pool2d(b, 2, 2, "VALID", name="pool")
    return tf.nn.avg_pool2d(c, 2, 2, "VALID", name="pool")


record("node names with name=", sorted((n.name, n.op) for n in named.get_concrete_function(
    tf.TensorSpec([1, 8, 8, 2]), tf.TensorSpec([3, 3, 2, 2])).graph.as_graph_def().node))
