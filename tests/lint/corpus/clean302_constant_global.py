# expect: none
# tf: ok
# pattern: a global that never changes
import tensorflow as tf

EPS = 1e-6

@tf.function
def safe_div(a, b):
    return a / (b + EPS)

safe_div(tf.constant(1.0), tf.constant(2.0))
safe_div(tf.constant(3.0), tf.constant(2.0))
