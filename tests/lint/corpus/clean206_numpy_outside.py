# expect: none
# tf: ok
# pattern: numpy on the eager result
import tensorflow as tf

import numpy as np

@tf.function
def f(x):
    return tf.reduce_sum(x)

total = np.sum(f(tf.constant([1.0, 2.0])).numpy())
