"""Function layer: a callee that reads a variable it closes over: the caller captures the variable's handle (a placeholder TF names by a uid) and feeds it to the StatefulPartitionedCall, which lists it in _read_only_resource_inputs; an assign is seen by the next call."""
from cases._fn_graph import record_graph

v = tf.Variable(3.0)


@tf.function
def inner(x):
    return x * v


@tf.function
def outer(x):
    return inner(x) + 1.0


call("outer", outer, tf.constant([1.0, 2.0]))
v.assign(10.0)
call("outer after assign", outer, tf.constant([1.0, 2.0]))
cf = outer.get_concrete_function(tf.constant([1.0, 2.0]))
record("captured_inputs dtypes", [repr(t.dtype) for t in cf.captured_inputs])
record("inputs", [str(t.shape) + " " + repr(t.dtype) for t in cf.inputs])
record_graph(record, "outer", cf)
count("inner count", inner)
