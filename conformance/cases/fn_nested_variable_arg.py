"""Function layer: a variable passed as an argument to an inner function that assigns it: the caller captures the handle and passes it first; not read-only; the assignment happens on every call."""
from cases._fn_graph import record_graph

v = tf.Variable([1.0, 2.0])


@tf.function
def upd(var, d):
    var.assign_add(d)
    return var.read_value()


@tf.function
def caller(d):
    return upd(v, d)


call("caller 1", caller, tf.constant([1.0, 1.0]))
call("caller 2", caller, tf.constant([1.0, 1.0]))
record("v", v)
count("upd count", upd)
record_graph(record, "caller", caller.get_concrete_function(tf.constant([1.0, 1.0])))
