# expect: none
# tf: ok
# pattern: tf.linalg.inv in a function that is not converted
import tensorflow as tf

@tf.function
def invert(m):
    return tf.linalg.inv(m)

invert(tf.eye(3))
