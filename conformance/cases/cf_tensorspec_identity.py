"""get_concrete_function(TensorSpec.from_tensor(z)) is get_concrete_function(z); specs and tensors share the cache."""
@tf.function
def f(x):
    return x * 2

z = tf.constant([[1.0, 2.0]])
c1 = concrete("from tensor", f, z)
c2 = concrete("from spec", f, tf.TensorSpec.from_tensor(z))
record("same object", c1 is c2)
c3 = concrete("spec with name", f, tf.TensorSpec([1, 2], tf.float32, name="zz"))
record("named spec same object", c3 is c1)
call("call hits", f, tf.constant([[5.0, 6.0]]))
record("spec repr", repr(tf.TensorSpec.from_tensor(z)))
