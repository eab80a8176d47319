"""Function layer: get_concrete_function inside another function's trace, then calling that ConcreteFunction there: one trace of the inner function, a call node of it."""
from cases._fn_graph import record_graph


@tf.function
def inner(x):
    return x - 1


@tf.function
def outer(x):
    cf = inner.get_concrete_function(tf.TensorSpec([None], tf.int32))
    return cf(x) * 3


call("outer([5, 6])", outer, tf.constant([5, 6]))
call("outer([5, 6, 7])", outer, tf.constant([5, 6, 7]))
count("inner count", inner)
count("outer count", outer)
record_graph(record, "outer", outer.get_concrete_function(tf.constant([5, 6])))
