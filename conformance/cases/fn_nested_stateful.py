"""Function layer: a callee holding a stateful op (tf.print) is called through a StatefulPartitionedCall that the caller's NoOp and outputs wait for; the print runs on every outer call."""
from cases._fn_graph import record_graph


@tf.function
def pr(x):
    tf.print("inner sees", x)
    return x


@tf.function
def outer(x):
    y = pr(x)
    tf.print("outer sees", y)
    return y + 1


call("outer(1)", outer, tf.constant(1))
call("outer(2)", outer, tf.constant(2))
count("pr count", pr)
record_graph(record, "outer", outer.get_concrete_function(tf.constant(1)))
