# expect: none
# tf: ok
# pattern: a plain while loop
import tensorflow as tf

@tf.function
def f(x):
    n = 0
    while n < 3:
        n += 1
    return x + n

f(tf.constant(1))
