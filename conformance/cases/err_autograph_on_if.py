"""AutoGraph on (default): `if`/`while` on tensors become tf.cond / tf.while_loop; Python conditions stay Python."""
@tf.function
def absval(x):
    if x > 0:
        y = x
    else:
        y = -x
    return y

call("absval(3)", absval, tf.constant(3))
call("absval(-4)", absval, tf.constant(-4))
graph_ops("absval ops", absval.get_concrete_function(tf.constant(1)))

@tf.function
def count_down(n):
    i = 0
    while n > 0:
        n -= 1
        i += 1
    return i

call("count_down(5)", count_down, tf.constant(5))
graph_ops("count_down ops", count_down.get_concrete_function(tf.constant(1)))

@tf.function
def py_cond(x, flag):
    if flag:
        return x + 1
    return x - 1

call("py_cond True", py_cond, tf.constant(1), True)
graph_ops("py_cond ops", py_cond.get_concrete_function(tf.constant(1), True))
