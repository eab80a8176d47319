# expect: none
# tf: ok
# pattern: numpy on the static shape
import tensorflow as tf

import numpy as np

@tf.function
def f(x):
    return tf.reduce_sum(x) / np.sqrt(x.shape[0])

f(tf.constant([1.0, 2.0]))
