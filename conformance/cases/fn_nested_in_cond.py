"""Function layer: a tf.function called in a tf.cond branch: the branch function holds a cond/PartitionedCall, and the callee sits in the outer graph's library."""
from cases._fn_graph import record_graph


@tf.function
def dbl(x):
    return x * 2


@tf.function
def br(x):
    return tf.cond(x > 0, lambda: dbl(x), lambda: x - 1)


call("br(3)", br, tf.constant(3))
call("br(-3)", br, tf.constant(-3))
count("dbl count", dbl)
record_graph(record, "br", br.get_concrete_function(tf.constant(1)))
