"""Node names of the op wrappers in a traced graph, without and with name=: TF's defaults, "foo"
then "foo_1" for a repeated name, host operands converted under the name ("foo/y")."""
from cases._fn_graph import graph


@tf.function
def plain(x, y):
    a = tf.add(x, y)
    b = tf.subtract(x, 1.0)
    c = tf.multiply(x, y)
    d = tf.divide(x, y)
    e = tf.maximum(x, y)
    f = tf.math.exp(x)
    g = tf.nn.relu(x)
    h = tf.identity(x)
    i = tf.cast(x, tf.int32)
    j = tf.reshape(x, [2, 2])
    k = tf.reduce_sum(x)
    m = tf.reduce_mean(x, axis=0)
    n = tf.concat([x, y], 0)
    o = tf.stack([x, y])
    p = tf.gather(x, [0, 1])
    q = tf.zeros([2])
    r = tf.zeros_like(x)
    s = tf.ones_like(x)
    t = tf.square(x)
    u = tf.sqrt(x)
    v = tf.abs(x)
    w = tf.expand_dims(x, 0)
    z = tf.transpose(j)
    return a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, z


@tf.function
def named(x, y):
    a = tf.add(x, y, name="foo")
    b = tf.add(x, 2.0, name="foo")
    c = tf.subtract(x, 1.0, name="sb")
    d = tf.multiply(x, y, name="ml")
    e = tf.math.exp(x, name="e")
    f = tf.nn.relu(x, name="r")
    g = tf.identity(x, name="idn")
    h = tf.cast(x, tf.int32, name="ct")
    i = tf.reshape(x, [2, 2], name="rs")
    j = tf.reduce_sum(x, name="s")
    k = tf.reduce_sum(x, axis=0, name="s")
    m = tf.concat([x, y], 0, name="cc")
    n = tf.stack([x, y], name="st")
    o = tf.gather(x, [0, 1], name="g")
    p = tf.zeros([2, 3], name="zz")
    q = tf.zeros_like(x, name="zl")
    r = tf.ones_like(x, name="ol")
    s = tf.square(x, name="sq")
    t = tf.maximum(x, 0.0, name="mx")
    u = tf.expand_dims(x, 0, name="ed")
    v = tf.transpose(i, name="tr")
    w = tf.constant([1.0, 2.0], name="c")
    z = tf.matmul(i, i, name="mm")
    return a, b, c, d, e, f, g, h, i, j, k, m, n, o, p, q, r, s, t, u, v, w, z


spec = tf.TensorSpec([4], tf.float32)
for label, fn in (("plain", plain), ("named", named)):
    cf = concrete(label, fn, spec, spec)
    if cf is not None:
        record(label + " graph", graph(cf))
