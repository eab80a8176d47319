"""Context: tf.init_scope in an inner function traced inside an outer one lifts to eager code (not to the outer graph): tf.executing_eagerly() True there, the eager constant captured by the inner graph and, through the call, by the outer."""
from cases._fn_graph import record_graph

seen = []


@tf.function
def inner(x):
    with tf.init_scope():
        seen.append(("inner init_scope", tf.executing_eagerly()))
        c = tf.constant(7)
    seen.append(("inner body", tf.executing_eagerly()))
    return x + c


@tf.function
def outer(x):
    seen.append(("outer body", tf.executing_eagerly()))
    return inner(x) * 2


call("outer(1)", outer, tf.constant(1))
call("outer(2)", outer, tf.constant(2))
record("executing_eagerly seen", seen)
count("inner count", inner)
count("outer count", outer)
record_graph(record, "outer", outer.get_concrete_function(tf.constant(1)))
