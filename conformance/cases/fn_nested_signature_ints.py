"""Function layer (issue 12's segfault): an outer function calls an inner one that has an input_signature with Python ints: the ints become Consts of the outer graph fed to the call."""
from cases._fn_graph import record_graph


@tf.function(input_signature=[tf.TensorSpec([], tf.int32)] * 3)
def f(a, b, c):
    return a + b + c


@tf.function
def g():
    return f(1, 2, 3)


call("g()", g)
call("g() again", g)
count("f count", f)
count("g count", g)
record_graph(record, "g", g.get_concrete_function())
