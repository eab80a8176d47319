"""Function layer: an inner function with an input_signature of unknown length called with tensors of known shape inside a trace: the one trace serves both calls; each call's output has the caller's static shape."""
from cases._fn_graph import record_graph


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def norm(v):
    return v / tf.reduce_sum(v)


@tf.function
def outer(a, b):
    p, q = norm(a), norm(b)
    print("static shapes", p.shape, q.shape)
    return p, q


call("outer", outer, tf.constant([1.0, 3.0]), tf.constant([1.0, 1.0, 2.0]))
count("norm count", norm)
record_graph(record, "outer", outer.get_concrete_function(tf.constant([1.0, 3.0]), tf.constant([1.0, 1.0, 2.0])))
