# expect: TFS406
# tf: graph-ops>=1000
# pattern: issue #38628: a Python loop unrolled into a large graph
import tensorflow as tf

@tf.function
def accumulate(x):
    for i in range(1000):
        x = x + 1.0
    return x

accumulate(tf.constant(0.0))
