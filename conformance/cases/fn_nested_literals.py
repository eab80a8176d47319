"""Function layer: an inner function called with Python literals inside a trace: one trace (and one library function) per distinct literal, a repeated literal reuses its trace; call nodes PartitionedCall, PartitionedCall_1, ..."""
from cases._fn_graph import record_graph


@tf.function
def inner(x, n):
    print("trace inner", n)
    return x * n


@tf.function
def outer(x):
    return inner(x, 2) + inner(x, 3) + inner(x, 2)


call("outer", outer, tf.constant([1, 2]))
count("inner count", inner)
count("outer count", outer)
call("inner(x, 2) eagerly", inner, tf.constant([4, 5]), 2)
count("inner count after eager hit", inner)
record_graph(record, "outer", outer.get_concrete_function(tf.constant([1, 2])))
