# expect: none
# tf: ok
# pattern: while True with a Python break
import tensorflow as tf

@tf.function
def f(x):
    i = 0
    while True:
        i += 1
        if i > 5:
            break
    return x + i

f(tf.constant(0))
