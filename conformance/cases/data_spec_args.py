"""A dataset or an iterator passed to a tf.function: TF traces once per DatasetSpec /
IteratorSpec (the element spec), not per object: datasets of equal specs share a trace, a
different dtype or shape traces again, a batch of unknown size (drop_remainder False) is a
supertype that serves later fixed-size batches, reduce_retracing relaxes to it; the dataset is
a variant input of the graph, the iterator a resource input read by IteratorGetNext, so the
caller's iterator advances; an iterator captured by closure reads the same position; the
signatures, the graphs' op counts and TF's end-of-sequence error."""
D = tf.data.Dataset
traces = []


def add_all(s, x):
    return s + tf.reduce_sum(tf.cast(x, tf.int64))


@tf.function
def total(ds):
    traces.append(1)
    return ds.reduce(tf.constant(0, tf.int64), add_all)


def double(x):
    return x * 2


record("range 3", total(D.range(3)))
record("range 5", total(D.range(5)))
record("mapped", total(D.range(5).map(double)))
record("traces after equal specs", len(traces))
record("batch 2 fixed", total(D.range(6).batch(2, drop_remainder=True)))
record("batch 3 fixed", total(D.range(6).batch(3, drop_remainder=True)))
record("batch 2 fixed again", total(D.range(6).batch(2, drop_remainder=True)))
record("batch unknown", total(D.range(6).batch(3)))
record("batch 5 fixed after unknown", total(D.range(10).batch(5, drop_remainder=True)))
record("int32", total(D.range(6, output_type=tf.int32)))
record("floats", total(D.from_tensor_slices([1., 2.])))
record("pairs", total(D.zip((D.range(3), D.range(3)))))
record("traces", len(traces))
count("total count", total)
record("signature", repr(total.get_concrete_function(D.range(3)).structured_input_signature))
graph_ops("total graph", total.get_concrete_function(D.range(3)))


@tf.function(reduce_retracing=True)
def relaxed(ds):
    return ds.reduce(tf.constant(0, tf.int64), add_all)


for n in (2, 3, 1):
    record("relaxed batch %d" % n, relaxed(D.range(6).batch(n, drop_remainder=True)))
count("relaxed count", relaxed)


@tf.function
def loop_sum(ds):
    s = tf.constant(0, tf.int64)
    for x in ds:
        s += x
    return s


record("loop over argument", loop_sum(D.range(4)))
record("loop over another", loop_sum(D.range(10, 12)))
count("loop count", loop_sum)
graph_ops("loop graph", loop_sum.get_concrete_function(D.range(4)))


@tf.function
def step(it):
    return next(it) * 10


it = iter(D.range(5))
record("step 1", step(it))
record("step 2", step(it))
other = iter(D.range(100, 105))
record("other iterator", step(other))
record("first again", step(it))
record("eager next after steps", next(it))
record("batched iterator", step(iter(D.range(5).batch(2))))
count("step count", step)
record("iterator spec", repr(step.get_concrete_function(it).structured_input_signature))
graph_ops("step graph", step.get_concrete_function(it))
record("inputs", [(t.dtype.name, t.shape.rank) for t in step.get_concrete_function(it).inputs])
short = iter(D.range(1))
record("short first", step(short))
attempt("past the end", lambda: step(short))


@tf.function
def two(it):
    a = it.get_next()
    b = next(it)
    return a, b


record("structured iterator", two(iter(D.zip((D.range(3), D.from_tensor_slices(["a", "b", "c"]))))))

captured = iter(D.range(3))


@tf.function
def from_closure():
    return next(captured)


record("closure 1", from_closure())
record("closure 2", from_closure())
record("closure eager next", next(captured))
record("dataset spec repr", repr(D.range(3).batch(2)._type_spec))
record("iterator spec repr", repr(iter(D.range(3))._type_spec))


def library_ops(cf):
    gd = cf.graph.as_graph_def()
    return sorted(n.op for f in gd.library.function for n in f.node_def)


@tf.function
def loop_iterator(it):
    s = tf.constant(0, tf.int64)
    for x in it:
        s += x
    return s


it = iter(D.range(5))
next(it)
record("loop over iterator", loop_iterator(it))
record("loop over spent iterator", loop_iterator(it))
count("loop iterator count", loop_iterator)
graph_ops("loop iterator graph", loop_iterator.get_concrete_function(it))
record("loop iterator library", library_ops(loop_iterator.get_concrete_function(it)))


@tf.function
def until_big(it):
    s = tf.constant(0, tf.int64)
    for x in it:
        if x > 2:
            break
        s += x
    return s


it = iter(D.range(10))
record("break in iterator loop", until_big(it))
record("after the break", next(it))
graph_ops("break loop graph", until_big.get_concrete_function(it))


@tf.function
def inner_iterator():
    s = tf.constant(0)
    for a, b in iter(D.zip((D.range(3), D.from_tensor_slices([4, 5, 6])))):
        s += b * tf.cast(a, tf.int32)
    return s


record("inner iterator loop", inner_iterator())
graph_ops("inner iterator graph", inner_iterator.get_concrete_function())
