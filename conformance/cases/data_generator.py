"""Dataset.from_generator as the tf.data guide uses it: output_signature (nested, with None
dims and unknown shapes), args, a generator started again for each iteration, batching and
shuffling its elements. (TF's errors for an element of the wrong shape, type or structure print
the generator's traceback to stderr: python/tests/test_data.py checks their first lines; the
deprecated output_types form logs a deprecation warning tfscope does not.)"""
D = tf.data.Dataset


def count(stop):
    i = 0
    while i < stop:
        yield i
        i += 1


ds = D.from_generator(count, args=[5], output_signature=tf.TensorSpec((), tf.int32))
record("repr", repr(ds))
record("cardinality", int(ds.cardinality()))
record("values", list(ds.as_numpy_iterator()))
record("again", list(ds.take(2).as_numpy_iterator()))


def ragged():
    for n in range(1, 4):
        yield n, list(range(n)), "s%d" % n


sig = (tf.TensorSpec(shape=(), dtype=tf.int64), tf.TensorSpec(shape=(None,), dtype=tf.float32),
       tf.TensorSpec(shape=(), dtype=tf.string))
g = D.from_generator(ragged, output_signature=sig)
record("nested spec", repr(g.element_spec))
record("nested", list(g.as_numpy_iterator()))
record("padded", [x.tolist() for _, x, _ in g.padded_batch(2).as_numpy_iterator()])
record("dict", list(D.from_generator(lambda: iter([{"a": 1, "b": 2.0}]), output_signature={
    "a": tf.TensorSpec((), tf.int32), "b": tf.TensorSpec((), tf.float64)}).as_numpy_iterator()))
u = D.from_generator(lambda: iter([1.0, [2.0, 3.0]]), output_signature=tf.TensorSpec(None, tf.float32))
record("unknown shape", (repr(u.element_spec), [x.tolist() for x in u.as_numpy_iterator()]))
record("shuffled", [int(x) for x in D.from_generator(count, args=[10], output_signature=tf.TensorSpec((), tf.int64)).shuffle(4, seed=3)])


attempt("no signature", lambda: D.from_generator(count))
