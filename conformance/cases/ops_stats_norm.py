"""Ops: normalization as TF's guides and models write it: tf.nn.moments (axes, keepdims),
tf.nn.batch_normalization (tensors, Python numbers, offset/scale None), tf.nn.l2_normalize,
tf.math.reduce_variance / reduce_std, tf.math.squared_difference, tf.stop_gradient,
tf.nn.embedding_lookup and a layer norm over the last axis: values, the graphs' nodes (names, ops,
inputs) and static shapes, and TF's errors."""

x = tf.constant([[1., 2., 3.], [4., 5., 6.], [7., 8., 10.], [0.5, -1., 2.]])
mean, var = tf.nn.moments(x, axes=[0])
record("moments axes [0]", [mean, var])
record("moments axes [0, 1] keepdims", list(tf.nn.moments(x, axes=[0, 1], keepdims=True)))
record("moments axes None", list(tf.nn.moments(x, None)))
record("moments int", list(tf.nn.moments(tf.constant([1, 2, 4]), [0])))
record("moments of rank 3 over [0, 1]", list(tf.nn.moments(tf.reshape(tf.range(24.), [2, 3, 4]), [0, 1])))

gamma = tf.constant([1., 0.5, 2.])
beta = tf.constant([0., 1., -1.])
record("batch_normalization", tf.nn.batch_normalization(x, mean, var, beta, gamma, 1e-3))
record("batch_normalization no offset/scale", tf.nn.batch_normalization(x, mean, var, None, None, 1e-5))
record("batch_normalization Python numbers", tf.nn.batch_normalization(x, 1., 2., None, None, 1e-3))
record("batch_normalization float offset", tf.nn.batch_normalization(x, 2., 3., 0.5, 2., 1e-3))

record("l2_normalize axis 1", tf.nn.l2_normalize(x, axis=1))
record("l2_normalize all", tf.nn.l2_normalize(x))
record("l2_normalize zeros", tf.nn.l2_normalize(tf.zeros([3])))
record("tf.math.l2_normalize axis 0", tf.math.l2_normalize(x, 0))
attempt("l2_normalize int", lambda: tf.nn.l2_normalize(tf.constant([1, 2])))

record("reduce_variance", tf.math.reduce_variance(x))
record("reduce_variance axis 1", tf.math.reduce_variance(x, axis=1))
record("reduce_variance axis -1 keepdims", tf.math.reduce_variance(x, axis=-1, keepdims=True))
record("reduce_variance list", tf.math.reduce_variance([1., 2., 4.]))
record("reduce_std axis 0", tf.math.reduce_std(x, 0))
record("reduce_std float64", tf.math.reduce_std(tf.constant([1., 2., 3., 4.], tf.float64)))
attempt("reduce_variance int", lambda: tf.math.reduce_variance(tf.constant([1, 2])))
attempt("reduce_std int", lambda: tf.math.reduce_std(tf.constant([1, 2])))

record("squared_difference", tf.math.squared_difference(x, 2.))
record("squared_difference broadcast", tf.math.squared_difference(x, tf.constant([1., 2., 3.])))
record("squared_difference int32", tf.math.squared_difference(tf.constant([3, -4]), tf.constant([5, 4])))
attempt("squared_difference shapes", lambda: tf.math.squared_difference(x, tf.constant([1., 2.])))
record("stop_gradient", tf.stop_gradient(x))
record("stop_gradient list", tf.stop_gradient([1, 2]))

table = tf.reshape(tf.range(12.), [4, 3])
record("embedding_lookup", tf.nn.embedding_lookup(table, [2, 0, 2]))
record("embedding_lookup 2-D ids", tf.nn.embedding_lookup(table, tf.constant([[0, 1], [3, 3]])))
attempt("embedding_lookup out of range", lambda: tf.nn.embedding_lookup(table, [5]))


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    variance = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(variance + eps) * gamma + beta


record("layer norm", layer_norm(x, gamma, beta))


def nodes(label, f, *specs):
    cf = tf.function(f, autograph=False).get_concrete_function(*specs)
    record(label + " nodes", [[n.name, n.op, list(n.input)] for n in cf.graph.as_graph_def().node])
    record(label + " shapes", [repr(t.shape) for t in cf.outputs])


s = tf.TensorSpec([4, 3], tf.float32)
nodes("moments", lambda x: tf.nn.moments(x, axes=[0]), s)
nodes("moments keepdims", lambda x: tf.nn.moments(x, axes=[0, 1], keepdims=True), s)
nodes("moments unknown batch", lambda x: tf.nn.moments(x, axes=[1]), tf.TensorSpec([None, 3], tf.float32))
nodes("batchnorm", lambda x, m, v: tf.nn.batch_normalization(x, m, v, beta, gamma, 1e-3), s,
      tf.TensorSpec([3], tf.float32), tf.TensorSpec([3], tf.float32))
nodes("batchnorm numbers", lambda x: tf.nn.batch_normalization(x, 1., 2., None, None, 1e-3), s)
nodes("batchnorm tensor mean, no offset", lambda x, m: tf.nn.batch_normalization(x, m, 2., None, 3., 1e-3), s,
      tf.TensorSpec([3], tf.float32))
nodes("l2_normalize", lambda x: tf.nn.l2_normalize(x, axis=1), s)
nodes("reduce_variance", lambda x: tf.math.reduce_variance(x, axis=1), s)
nodes("reduce_std", lambda x: tf.math.reduce_std(x), s)
nodes("squared_difference", lambda x: tf.math.squared_difference(x, 2.), s)
nodes("embedding_lookup", lambda p, i: tf.nn.embedding_lookup(p, i), s, tf.TensorSpec([None], tf.int32))
nodes("layer norm", lambda x: layer_norm(x, gamma, beta), s)


@tf.function
def block(x):
    m, v = tf.nn.moments(x, axes=[-1], keepdims=True)
    return tf.nn.batch_normalization(x, m, v, beta, gamma, 1e-5)


call("moments + batchnorm in tf.function", block, x)
graph_ops("moments + batchnorm ops", block.get_concrete_function(s))
