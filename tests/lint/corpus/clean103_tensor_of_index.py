# expect: none
# tf: no-retrace
# pattern: the guide's fix: tf.constant(i)
import tensorflow as tf

@tf.function
def f(x, n):
    return x * tf.cast(n, tf.float32)

x = tf.constant(1.0)
for i in range(4):
    f(x, tf.constant(i))
