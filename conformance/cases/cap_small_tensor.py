"""Captures: a small eager tensor (<=128 elements) is baked in as a Const; rebinding the name is not seen."""
t = tf.constant([1.0, 2.0, 3.0, 4.0])

@tf.function
def f(x):
    return x + t

call("first", f, tf.constant(1.0))
t = tf.constant([100.0, 100.0, 100.0, 100.0])
call("after rebinding t", f, tf.constant(1.0))
describe("cf", f.get_concrete_function(tf.constant(1.0)))
