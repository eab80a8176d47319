"""tf.data without user functions, as the tf.data guide builds input pipelines: sources
(from_tensor_slices of tensors, tuples, dicts and numpy arrays; from_tensors; range; zip),
batch/unbatch/padded_batch, repeat/take/skip/prefetch/cache/enumerate; each dataset's repr
(class and element_spec), cardinality and elements."""
import collections

D = tf.data.Dataset


def show(label, ds, n=None):
    record(label + " repr", repr(ds))
    record(label + " cardinality", int(ds.cardinality()))
    it = ds.as_numpy_iterator()
    out = []
    for x in it:
        out.append(x)
        if n is not None and len(out) >= n:
            break
    record(label + " elements", out)


show("slices list", D.from_tensor_slices([1, 2, 3]))
show("slices 2d", D.from_tensor_slices(tf.constant([[1., 2.], [3., 4.], [5., 6.]])))
show("slices tuple", D.from_tensor_slices(([1, 2], ["a", "b"])))
show("slices dict", D.from_tensor_slices({"b": [1.5, 2.5], "a": [[1, 2], [3, 4]]}))
show("slices numpy", D.from_tensor_slices(np.arange(6.0).reshape(3, 2)))
Point = collections.namedtuple("Point", ["x", "y"])
show("slices namedtuple", D.from_tensor_slices(Point([1, 2], [3, 4])))
show("tensors", D.from_tensors(([1, 2, 3], "s")))
show("range 5", D.range(5))
show("range 2 args", D.range(2, 5))
show("range step", D.range(10, 0, -3))
show("range int32", D.range(3, output_type=tf.int32))
show("range empty", D.range(0))
show("zip", D.zip((D.range(3), D.from_tensor_slices(["x", "y", "z", "w"]))))
show("zip args", D.zip(D.range(2), D.range(5)))
show("zip nested", D.zip({"a": D.range(2), "b": (D.range(3), D.range(4))}))
r = D.range(10)
show("batch", r.batch(4))
show("batch drop", r.batch(4, drop_remainder=True))
show("batch tuple", D.zip((r, r)).batch(3))
show("batch of batches", r.batch(2).batch(2))
show("unbatch", r.batch(3).unbatch())
show("unbatch known", r.batch(2, drop_remainder=True).unbatch())
show("padded", D.from_tensor_slices([[1, 2], [3, 4]]).padded_batch(2, padded_shapes=[4]))
show("padded default", D.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).padded_batch(2))
show("padded value", D.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).padded_batch(2, padded_shapes=[3], padding_values=-1, drop_remainder=True))
show("repeat", D.range(3).repeat(2))
show("repeat forever", D.range(3).repeat(), n=7)
show("repeat then take", D.range(3).repeat().take(5))
show("take", r.take(3))
show("take all", r.take(-1))
show("take more", r.take(20))
show("skip", r.skip(7))
show("skip all", r.skip(-1))
show("skip more", r.skip(20))
show("prefetch", r.prefetch(2))
show("prefetch autotune", r.prefetch(tf.data.AUTOTUNE))
show("cache", r.take(3).cache())
show("enumerate", D.from_tensor_slices(["a", "b"]).enumerate(start=5))
show("chain", D.range(20).skip(2).take(13).batch(5).repeat(2))
record("len", len(D.range(7).batch(2)))
attempt("len infinite", lambda: len(D.range(3).repeat()))
record("constants", (tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY, tf.data.AUTOTUNE))
record("cardinality infinite batch", int(D.range(3).repeat().batch(2).cardinality()))
record("element_spec", repr(D.zip((D.range(2), D.from_tensor_slices({"k": [[1.0]]}))).element_spec))
it = iter(D.range(2))
record("next", next(it))
record("get_next", it.get_next())
attempt("stop", lambda: next(it))
attempt("out of range", lambda: it.get_next())
ds = D.range(3).cache()
record("cache twice", (list(ds.as_numpy_iterator()), list(ds.as_numpy_iterator())))
record("iter tensors", [t for t in D.range(2)])
