"""Function layer: an inner function returning a namedtuple and a list of tensors: the caller gets them rebuilt (field access works in the outer trace), each element one output of the call node."""
import collections

from cases._fn_graph import record_graph

Stats = collections.namedtuple("Stats", ["mean", "total"])


@tf.function
def stats(x):
    print("trace stats")
    return Stats(tf.reduce_mean(x), tf.reduce_sum(x)), [x[0], x[-1]]


@tf.function
def summary(x):
    s, ends = stats(x)
    return s.total - s.mean, ends[1] - ends[0]


call("summary", summary, tf.constant([1.0, 2.0, 6.0]))
call("stats eagerly", stats, tf.constant([1.0, 2.0, 6.0]))
count("stats count", stats)
record_graph(record, "summary", summary.get_concrete_function(tf.constant([1.0, 2.0, 6.0])))
