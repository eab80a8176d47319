"""A `for` over a dataset with `break` in a tf.function: AutoGraph's loop adds a
TakeWhileDataset on the loop's extra test between the ScanDataset and the ReduceDataset, as TF
builds it; the outputs, the trace count and the graph's op counts."""
D = tf.data.Dataset


@tf.function
def until(limit):
    s = tf.constant(0, tf.int64)
    for x in D.range(100):
        s += x
        if s > limit:
            break
    return s


record("break 10", until(tf.constant(10, tf.int64)))
record("break 100", until(tf.constant(100, tf.int64)))
record("break traces", until.experimental_get_tracing_count())
graph_ops("break graph", until.get_concrete_function(tf.constant(10, tf.int64)))
