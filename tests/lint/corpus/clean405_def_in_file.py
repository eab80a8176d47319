# expect: none
# tf: ok
# pattern: the same function defined in the file
import tensorflow as tf

def absolute_value(x):
    return x if x > 0 else -x

absolute = tf.function(absolute_value)
absolute(tf.constant(-2))
