# expect: none
# tf: ok
# pattern: the same if with AutoGraph on
import tensorflow as tf

@tf.function
def f(x):
    if x > 0:
        return x
    return -x

f(tf.constant(1))
