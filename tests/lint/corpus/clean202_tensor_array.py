# expect: none
# tf: ok
# pattern: tf.TensorArray for values produced in a loop
import tensorflow as tf

@tf.function
def f(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
    for i in tf.range(n):
        ta = ta.write(i, i * 2)
    return ta.stack()

f(tf.constant(3))
