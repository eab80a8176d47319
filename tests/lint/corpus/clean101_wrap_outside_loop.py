# expect: none
# tf: no-retrace
# pattern: tf.function(f) made once
import tensorflow as tf

def f(v):
    return v + 1.0

g = tf.function(f)
x = tf.constant(1.0)
for i in range(3):
    g(x)
