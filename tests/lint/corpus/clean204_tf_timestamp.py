# expect: none
# tf: ok
# pattern: tf.timestamp() at run time
import tensorflow as tf

@tf.function
def stamp(x):
    return tf.cast(x, tf.float64) + tf.timestamp()

stamp(tf.constant(1.0))
