# expect: none
# tf: no-retrace
# pattern: the lambda is wrapped once
import tensorflow as tf

g = tf.function(lambda v: v + 1.0)
x = tf.constant(1.0)
for i in range(3):
    g(x)
