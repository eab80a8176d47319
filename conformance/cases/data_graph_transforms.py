"""Each source and transform built inside a tf.function (a dataset op in the graph, reduced by
ReduceDataset): the result and the graph's op counts, as TF builds them (the constants each
wrapper adds, shuffle's seed logic, cache's DummyMemoryCache, enumerate's RewriteDataset)."""
D = tf.data.Dataset


def add(s, x):
    return s + tf.reduce_sum(tf.cast(x, tf.int64))


def double(x):
    return x * 2


def even(x):
    return x % 2 == 0


def twice(x):
    return D.from_tensors(x).repeat(2)


def plus(a, b):
    return a + b


def times(i, x):
    return i * x


def fill(x):
    return tf.fill([x], x)


def running(s, x):
    return s + x, s


def below_four(x):
    return x < 4


def itself(w):
    return w


def ds_slices():
    return D.from_tensor_slices([1, 2, 3])


def ds_tensors():
    return D.from_tensors([1, 2, 3])


def ds_range():
    return D.range(5)


def ds_zip():
    return D.zip((D.range(3), D.range(4))).map(plus)


def ds_batch():
    return D.range(7).batch(3)


def ds_batch_drop():
    return D.range(7).batch(3, drop_remainder=True)


def ds_padded():
    return D.range(4).map(fill).padded_batch(2)


def ds_unbatch():
    return D.range(6).batch(4).unbatch()


def ds_shuffle():
    return D.range(6).shuffle(4, seed=3)


def ds_repeat():
    return D.range(3).repeat(2)


def ds_take_skip():
    return D.range(10).skip(2).take(5)


def ds_prefetch():
    return D.range(4).prefetch(2)


def ds_cache():
    return D.range(4).cache()


def ds_enumerate():
    return D.range(3).enumerate(start=4).map(times)


def ds_map():
    return D.range(4).map(double)


def ds_map_parallel():
    return D.range(4).map(double, num_parallel_calls=2, deterministic=True)


def ds_filter():
    return D.range(9).filter(even)


def ds_flat_map():
    return D.range(3).flat_map(twice)


def ds_interleave():
    return D.range(3).interleave(twice, cycle_length=2, block_length=1)


def ds_scan():
    return D.range(4).scan(tf.constant(0, tf.int64), running)


def ds_window():
    return D.range(5).window(2).flat_map(itself)


def ds_take_while():
    return D.range(9).take_while(below_four)


FORMS = [
    ("slices", ds_slices),
    ("tensors", ds_tensors),
    ("range", ds_range),
    ("zip", ds_zip),
    ("batch", ds_batch),
    ("batch drop", ds_batch_drop),
    ("padded", ds_padded),
    ("unbatch", ds_unbatch),
    ("shuffle", ds_shuffle),
    ("repeat", ds_repeat),
    ("take skip", ds_take_skip),
    ("prefetch", ds_prefetch),
    ("cache", ds_cache),
    ("enumerate", ds_enumerate),
    ("map", ds_map),
    ("map parallel", ds_map_parallel),
    ("filter", ds_filter),
    ("flat_map", ds_flat_map),
    ("interleave", ds_interleave),
    ("scan", ds_scan),
    ("window", ds_window),
    ("take_while", ds_take_while),
]

for label, make in FORMS:
    def body(make=make):
        return make().reduce(tf.constant(0, tf.int64), add)

    f = tf.function(body)
    record(label, f())
    graph_ops(label + " ops", f.get_concrete_function())
