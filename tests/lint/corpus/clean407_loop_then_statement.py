# expect: none
# tf: ok
# pattern: the else: block moved after the loop
import tensorflow as tf

@tf.function
def f(x):
    for i in range(3):
        x = x * 2
    x = x + 1
    return x

f(tf.constant(1))
