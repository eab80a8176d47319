"""ConcreteFunction flat-signature fallback errors: non-tensor positional, too many, and unexpected keywords."""
@tf.function
def add(x, y):
    return x + y

cf = add.get_concrete_function(tf.TensorSpec([2], tf.float32), tf.TensorSpec([2], tf.float32))
v = tf.constant([1.0, 2.0])
call("ok positional", cf, v, v)
call("ok keywords", cf, y=v, x=v)
call("python list converts", cf, [1.0, 2.0], v)
call("string arg", cf, v, "a")
call("three args", cf, v, v, v)
call("bad keyword", cf, v, z=v)
call("shape mismatch", cf, v, tf.constant([1.0, 2.0, 3.0]))
call("int tensor", cf, v, tf.constant([1, 2]))
