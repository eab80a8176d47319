# expect: none
# tf: ok
# pattern: the global is final before the first call
import tensorflow as tf

scale = 1.0

@tf.function
def f(x):
    return x * scale

scale = 3.0
f(tf.constant(1.0))
f(tf.constant(2.0))
