# expect: none
# tf: no-retrace
# pattern: the same Python value every iteration
import tensorflow as tf

@tf.function
def f(x, n):
    return x * n

x = tf.constant(1.0)
for i in range(4):
    f(x, 2)
