# expect: none
# tf: no-retrace
# pattern: tf.cast(i, ...) makes a tensor
import tensorflow as tf

@tf.function
def f(x, n):
    return x * n

x = tf.constant(1.0)
for i in range(4):
    f(x, tf.cast(i, tf.float32))
