# expect: none
# tf: no-retrace
# pattern: dataset elements are tensors
import tensorflow as tf

@tf.function
def f(t):
    return t + 1

ds = tf.data.Dataset.range(4)
for t in ds:
    f(t)
