"""Function layer: eager tensors and Python values passed to an inner function inside a trace: a small eager tensor becomes a Const and a large one a Placeholder (both named by a uid), a Python int is baked into the callee (no input), tf.constant in the trace is a Const."""
from cases._fn_graph import record_graph

small = tf.constant([1, 2])
big = tf.ones([200])


@tf.function
def inner(x):
    return x * 2


@tf.function
def outer():
    return inner(small), tf.reduce_sum(inner(big)), inner(3), inner(tf.constant(4))


call("outer()", outer)
count("inner count", inner)
cf = outer.get_concrete_function()
record("captured_inputs", [(repr(t.dtype), str(t.shape)) for t in cf.captured_inputs])
record_graph(record, "outer", cf)
