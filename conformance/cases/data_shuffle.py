"""Dataset.shuffle as TF orders it, element for element: the op seed alone (seed 87654321 and
the op seed), the global seed and the op-seed counter, buffers smaller and larger than the
dataset, reshuffle_each_iteration on and off across repeat epochs and across iterators."""
D = tf.data.Dataset


def order(ds):
    return [int(x) for x in ds.as_numpy_iterator()]


record("seed 7 buffer 4", order(D.range(10).shuffle(4, seed=7)))
record("seed 123 big buffer", order(D.range(100).shuffle(1000, seed=123)))
record("buffer 1", order(D.range(5).shuffle(1, seed=3)))
ds = D.range(6).shuffle(3, seed=7)
record("reshuffled iterators", (order(ds), order(ds), order(ds)))
ds = D.range(6).shuffle(3, seed=7, reshuffle_each_iteration=False)
record("fixed iterators", (order(ds), order(ds)))
record("repeat reshuffle", order(D.range(6).shuffle(3, seed=7).repeat(3)))
record("repeat fixed", order(D.range(6).shuffle(3, seed=7, reshuffle_each_iteration=False).repeat(2)))
record("shuffle batch", [x.tolist() for x in D.range(12).shuffle(5, seed=11).batch(4).as_numpy_iterator()])
record("batch shuffle", [x.tolist() for x in D.range(12).batch(3).shuffle(2, seed=11).as_numpy_iterator()])
record("long", order(D.range(1000).shuffle(64, seed=2024)))
tf.random.set_seed(5)
record("global seed first", order(D.range(10).shuffle(10)))
record("global seed second", order(D.range(10).shuffle(10)))
record("global and op seed", order(D.range(10).shuffle(10, seed=1)))
tf.random.set_seed(5)
record("global seed reset", order(D.range(10).shuffle(10)))
tf.random.set_seed(0)
record("zero seeds", order(D.range(10).shuffle(10, seed=0)))
tf.random.set_seed(None)
record("unseeded is a permutation", sorted(order(D.range(50).shuffle(50))))
record("repr", repr(D.range(3).shuffle(2, seed=1)))
record("cardinality", int(D.range(7).shuffle(3).cardinality()))
attempt("buffer 0", lambda: D.range(3).shuffle(0))
