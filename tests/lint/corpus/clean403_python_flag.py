# expect: none
# tf: ok
# pattern: a Python flag with autograph=False
import tensorflow as tf

@tf.function(autograph=False)
def f(x, flip):
    if flip:
        return -x
    return x

f(tf.constant(1), True)
