"""tf.print inside tf.cond branches and a tf.while_loop body runs per executed branch / iteration; print() once per trace."""
@tf.function
def f(n):
    print("trace")
    def body(i):
        tf.print("iteration", i)
        return (i + 1,)
    tf.while_loop(lambda i: i < n, body, [tf.constant(0)])
    return tf.cond(n > 1, lambda: _loud(n, "big"), lambda: _loud(n, "small"))

def _loud(n, tag):
    tf.print("branch", tag, n)
    return n * 10

call("n=3", f, tf.constant(3))
call("n=1", f, tf.constant(1))
call("n=0", f, tf.constant(0))
