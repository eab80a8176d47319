"""Function layer: tf.while_loop (no AutoGraph) whose body calls a tf.function closing over a variable: the body holds a while/StatefulPartitionedCall, the callee traced once; the loop's values."""
from cases._fn_graph import record_graph

v = tf.Variable(3)


@tf.function
def add_v(x):
    print("trace add_v")
    return x + v


@tf.function(autograph=False)
def loop(n):
    return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, add_v(s)), (tf.constant(0), tf.constant(0)))


call("loop(4)", loop, tf.constant(4))
v.assign(10)
call("loop(2) after assign", loop, tf.constant(2))
count("add_v count", add_v)
count("loop count", loop)
record_graph(record, "loop", loop.get_concrete_function(tf.constant(1)))
