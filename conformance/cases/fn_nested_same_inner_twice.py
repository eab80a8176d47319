"""Function layer: one inner function called twice in a body with the same argument types: one trace and one library function, two call nodes PartitionedCall and PartitionedCall_1 (the second fed by the first)."""
from cases._fn_graph import record_graph


@tf.function
def sq(x):
    print("trace sq")
    return x * x


@tf.function
def quad(x):
    return sq(sq(x))


call("quad(2)", quad, tf.constant(2.0))
call("quad(3)", quad, tf.constant(3.0))
count("sq count", sq)
count("quad count", quad)
record_graph(record, "quad", quad.get_concrete_function(tf.constant(2.0)))
