"""Function layer: three levels (c calls b and a, b calls a): the library of c holds b and a once each, b's FunctionDef holds its own PartitionedCall of a; a is traced once."""
from cases._fn_graph import record_graph


@tf.function
def a(x):
    print("trace a")
    return x + 1


@tf.function
def b(x):
    print("trace b")
    return a(x) * 2


@tf.function
def c(x):
    return b(x) - a(x)


call("c(1)", c, tf.constant(1))
call("c(5)", c, tf.constant(5))
count("a count", a)
count("b count", b)
record_graph(record, "c", c.get_concrete_function(tf.constant(1)))
