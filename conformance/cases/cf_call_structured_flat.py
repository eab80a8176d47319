"""ConcreteFunction calls: structured binding, literal mismatch error with flat fallback message, flat call with only tensors."""
@tf.function
def scaled(x, factor):
    return x * factor

a = tf.constant([1, 2])
b = tf.constant([8, 9])
cf = concrete("cf(a, 2)", scaled, a, 2)
call("cf(b, 2)", cf, b, 2)
call("cf(a, 3)", cf, a, 3)
call("cf(b) flat", cf, b)
call("cf(x=b, factor=2)", cf, x=b, factor=2)
call("cf(b, factor=2)", cf, b, factor=2)
call("cf([1,2,3], 2) shape", cf, tf.constant([1, 2, 3]), 2)
call("cf(float, 2)", cf, tf.constant([1.0, 2.0]), 2)
call("cf() none", cf)
call("cf(python list)", cf, [1, 2], 2)
count("no retrace from cf calls", scaled)
