# expect: TFS104
# tf: retrace
# pattern: a new lambda passed each iteration
import tensorflow as tf

@tf.function
def apply(x, fn):
    return fn(x)

x = tf.constant(1.0)
for i in range(3):
    apply(x, lambda v: v + 1.0)
