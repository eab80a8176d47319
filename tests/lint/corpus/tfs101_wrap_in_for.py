# expect: TFS101
# tf: retrace
# pattern: issue #32157 style: tf.function(f) re-created per step
import tensorflow as tf

def f(v):
    return v + 1.0

x = tf.constant(1.0)
for i in range(3):
    g = tf.function(f)
    g(x)
