# expect: none
# tf: graph-ops<100
# pattern: tf.range builds one while loop
import tensorflow as tf

@tf.function
def accumulate(x):
    for i in tf.range(1000):
        x = x + 1.0
    return x

accumulate(tf.constant(0.0))
