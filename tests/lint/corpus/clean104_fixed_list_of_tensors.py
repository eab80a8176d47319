# expect: none
# tf: no-retrace
# pattern: a list of tensors with a fixed structure
import tensorflow as tf

@tf.function
def total(xs):
    return xs[0] + xs[1]

x = tf.constant(1.0)
y = tf.constant(2.0)
for i in range(3):
    total([x, y])
