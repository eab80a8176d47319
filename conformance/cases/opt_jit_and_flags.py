"""tf.function options accepted: jit_compile=True, autograph=False, reduce_retracing=False; counts and results unchanged."""
def body(x, y):
    return tf.matmul(x, y) + 1.0

jit = tf.function(body, jit_compile=True)
noag = tf.function(body, autograph=False)
plain = tf.function(body, reduce_retracing=False)
x = tf.ones([2, 3])
y = tf.ones([3, 2])
for name, fn in (("jit", jit), ("autograph=False", noag), ("reduce_retracing=False", plain)):
    call(f"{name} 1", fn, x, y)
    call(f"{name} 2", fn, x * 2, y)
    call(f"{name} new shape", fn, tf.ones([1, 3]), y)
graph_ops("jit ops", jit.get_concrete_function(x, y))
record("function repr type name", type(jit).__name__)
