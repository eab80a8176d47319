# expect: none
# tf: no-retrace
# pattern: one Function per distinct Python function
import tensorflow as tf

def f1(v):
    return v + 1.0

def f2(v):
    return v * 2.0

x = tf.constant(1.0)
for fn in [f1, f2]:
    tf.function(fn)(x)
