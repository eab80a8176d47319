# expect: none
# tf: ok
# pattern: the variable is created eagerly
import tensorflow as tf

v = tf.Variable(1.0)

@tf.function
def f(x):
    return v + x

f(tf.constant(1.0))
