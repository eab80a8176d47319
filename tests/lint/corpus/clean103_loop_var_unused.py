# expect: none
# tf: no-retrace
# pattern: the loop variable is not passed
import tensorflow as tf

@tf.function
def f(x):
    return x * 3.0

x = tf.constant(1.0)
for i in range(4):
    f(x)
