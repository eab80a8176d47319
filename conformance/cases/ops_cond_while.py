"""Ops: tf.cond and tf.while_loop eager and in graphs: values, op types (If/StatelessIf/While...), loop vars."""
x = tf.constant(3)
record("cond eager true", tf.cond(x > 0, lambda: x * 2, lambda: x - 1))
record("cond eager false", tf.cond(x < 0, lambda: x * 2, lambda: x - 1))
record("while eager", tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), [0, 0]))

@tf.function
def c(x):
    return tf.cond(x > 0, lambda: x * 2, lambda: x - 1)

call("cond graph 3", c, tf.constant(3))
call("cond graph -3", c, tf.constant(-3))
graph_ops("cond ops", c.get_concrete_function(tf.constant(1)))

v = tf.Variable(0)

@tf.function
def c_stateful(x):
    return tf.cond(x > 0, lambda: v.assign_add(1), lambda: v.read_value())

call("stateful cond", c_stateful, tf.constant(1))
graph_ops("stateful cond ops", c_stateful.get_concrete_function(tf.constant(1)))

@tf.function
def w(n):
    i, s = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), [tf.constant(0), tf.constant(0)])
    return i, s

call("while graph 5", w, tf.constant(5))
call("while graph 0", w, tf.constant(0))
graph_ops("while ops", w.get_concrete_function(tf.constant(1)))

@tf.function
def py_pred(x):
    return tf.cond(True, lambda: x + 1, lambda: x - 1)

call("python bool pred", py_pred, tf.constant(1))
concrete("python pred concrete", py_pred, tf.constant(1))
