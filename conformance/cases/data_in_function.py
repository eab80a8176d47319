"""Datasets inside a tf.function: a Python `for` over a dataset, which AutoGraph builds as TF
does (the body in a ScanDataset's function, a ReduceDataset keeping the last loop variables),
over a dataset built inside the function or outside it; a
dataset function (map) traced inside the trace; the outputs, trace counts and the graph's op
counts. A loop with `break`: data_loop_break."""
D = tf.data.Dataset


def double(x):
    return x * 2


@tf.function
def sum_mapped():
    ds = D.range(5).map(double)
    s = tf.constant(0, tf.int64)
    for x in ds:
        s += x
    return s


record("sum mapped", sum_mapped())
record("sum mapped again", sum_mapped())
record("sum mapped traces", sum_mapped.experimental_get_tracing_count())
graph_ops("sum mapped graph", sum_mapped.get_concrete_function())

outside = D.from_tensor_slices([1., 2., 3., 4.])


@tf.function
def total_outside():
    t = tf.constant(0.)
    n = tf.constant(0)
    for x in outside:
        t += x
        n += 1
    return t, n


record("outside", total_outside())
graph_ops("outside graph", total_outside.get_concrete_function())


@tf.function
def batches():
    m = tf.constant(0, tf.int64)
    for b in D.range(10).batch(3):
        m = tf.maximum(m, tf.reduce_sum(b))
    return m


record("batches", batches())


@tf.function
def structured():
    acc = tf.constant(0)
    for a, b in D.zip((D.range(3), D.from_tensor_slices([10, 20, 30]))):
        acc += b * tf.cast(a, tf.int32)
    return acc


record("structured", structured())


@tf.function
def reduce_inside(k):
    def scale(x):
        return x * k

    def add(s, x):
        return s + x

    return D.range(4).map(scale).reduce(tf.constant(0, tf.int64), add)


record("reduce inside", reduce_inside(tf.constant(3, tf.int64)))
graph_ops("reduce inside graph", reduce_inside.get_concrete_function(tf.constant(3, tf.int64)))


@tf.function
def first_two():
    it = iter(D.range(3))
    a = next(it)
    b = next(it)
    return a + b


record("iter next", first_two())
graph_ops("iter next graph", first_two.get_concrete_function())
