# expect: none
# tf: ok
# pattern: tf.random.uniform draws per call
import tensorflow as tf

@tf.function
def noisy(x):
    return x + tf.random.uniform([])

noisy(tf.constant(1.0))
