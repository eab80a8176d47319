# expect: none
# tf: ok
# pattern: the tensor condition in the while test
import tensorflow as tf

@tf.function
def f(x):
    while x <= 5:
        x += 1
    return x

f(tf.constant(0))
