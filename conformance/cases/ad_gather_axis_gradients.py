"""Autodiff: the gradient of tf.gather on an axis other than 0 and with batch_dims, as TF 2.21's
array_grad._GatherV2Grad builds it: a dense gradient (the output gradient reshaped around the
gathered axis, transposed so that axis follows the batch dims, summed into rows by
UnsortedSegmentSum with _GetBatchIndices' offsets, transposed back and reshaped to the params).
Compared: the graph node for node inside a tf.function, the values (repeated indices sum), and
the same eagerly; each value also against a central difference."""
from cases._fn_graph import graph
from cases._grad_check import bits, central, near

rng = np.random.default_rng(23)
pv = rng.uniform(-1.0, 1.0, (2, 3, 4)).astype(np.float32)
p = tf.constant(pv)
w = tf.constant(rng.uniform(-1.0, 1.0, (2, 3, 4)).astype(np.float32))
wv = w.numpy().astype(np.float64)

CASES = [
    ("axis 1", dict(axis=1), np.array([2, 0, 2], np.int32)),
    ("axis -1", dict(axis=-1), np.array([3, 1], np.int32)),
    ("axis 2, 2-D indices", dict(axis=2), np.array([[0, 1], [1, 3]], np.int32)),
    ("batch_dims 1, axis 1", dict(axis=1, batch_dims=1), np.array([[0, 2], [1, 1]], np.int32)),
    ("batch_dims -1, axis 2", dict(axis=2, batch_dims=-1), np.array([[[0], [3], [1]], [[2], [2], [0]]], np.int32)),
]


def numpy_gather(a, ids, axis, batch_dims=0):
    axis = axis % a.ndim
    if batch_dims < 0:
        batch_dims += ids.ndim
    if batch_dims == 0:
        return np.take(a, ids, axis=axis)
    return np.stack([numpy_gather(a[b], ids[b], axis - 1, batch_dims - 1) for b in range(a.shape[0])])


for label, kw, ids in CASES:
    i = tf.constant(ids)

    @tf.function
    def grad_of(p, i):
        with tf.GradientTape() as t:
            t.watch(p)
            y = tf.gather(p, i, **kw)
            loss = tf.reduce_sum(y * tf.ones_like(y) * 1.5)
        return t.gradient(loss, p)

    record(label + " graph", graph(grad_of.get_concrete_function(p, i)))
    g = grad_of(p, i)
    record(label + " value", bits(g))
    ref = central(lambda a: 1.5 * np.sum(numpy_gather(a, ids, **kw)), pv)
    record(label + " vs central difference", near(g, ref))
    with tf.GradientTape() as t:
        t.watch(p)
        loss = tf.reduce_sum(tf.gather(p, i, **kw) * 2.0)
    record(label + " eager", bits(t.gradient(loss, p)))
