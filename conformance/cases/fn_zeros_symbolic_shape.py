"""Function layer (issue 12's segfault): tf.zeros / tf.ones of a shape list holding a tensor, the RNN initial-state idiom: autopacked into zeros/packed (its int a Const zeros/packed/1), filled with zeros/Const; static shape (None, 16) for an unknown batch, (2, 16) for a known one."""
from cases._fn_graph import graph


@tf.function
def z(x):
    s = tf.zeros([tf.shape(x)[0], 16])
    o = tf.ones([tf.shape(x)[0], 16], dtype=tf.int32)
    print("static shapes", s.shape, o.shape, o.dtype)
    return s, o


cf = z.get_concrete_function(tf.TensorSpec([None, 3], tf.float32))
call("cf(ones [2, 3])", cf, tf.ones([2, 3]))
record("graph", graph(cf))
call("z(ones [2, 3]) (static batch)", z, tf.ones([2, 3]))
record("eager zeros", tf.zeros([tf.constant(2), 3]))
