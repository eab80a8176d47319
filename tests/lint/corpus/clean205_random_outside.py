# expect: none
# tf: ok
# pattern: Python random in eager code, passed as a tensor
import tensorflow as tf

import random

@tf.function
def noisy(x, eps):
    return x + eps

noisy(tf.constant(1.0), tf.constant(random.random(), tf.float32))
