# expect: none
# tf: no-retrace
# pattern: the list is built before the loop
import tensorflow as tf

@tf.function
def total(xs):
    return tf.add_n(xs)

xs = [tf.constant(1.0), tf.constant(2.0)]
for i in range(3):
    total(xs)
