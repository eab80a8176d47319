# expect: none
# tf: ok
# pattern: numpy constants are fine at trace time
import tensorflow as tf

import numpy as np

@tf.function
def f(x):
    return x * np.float32(2.0) + np.pi

f(tf.constant([1.0, 2.0]))
