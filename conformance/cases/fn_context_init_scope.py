"""Context: tf.init_scope inside a trace: ops run eagerly there (tf.executing_eagerly() True, a tf.constant is an eager tensor), and the eager value is captured where it is used (a Const add/y)."""
from cases._fn_graph import graph


@tf.function
def g(x):
    with tf.init_scope():
        print("inside init_scope:", tf.executing_eagerly())
        c = tf.constant(5)
        print("constant is eager:", hasattr(c, "numpy") and c.numpy() == 5)
    print("after init_scope:", tf.executing_eagerly())
    return x + c


call("g(1)", g, tf.constant(1))
call("g(2)", g, tf.constant(2))
count("count", g)
record("graph", graph(g.get_concrete_function(tf.constant(1))))
record("eager outside", tf.executing_eagerly())
