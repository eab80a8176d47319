# expect: none
# tf: graph-ops<100
# pattern: a short Python loop
import tensorflow as tf

@tf.function
def accumulate(x):
    for i in range(3):
        x = x + 1.0
    return x

accumulate(tf.constant(0.0))
