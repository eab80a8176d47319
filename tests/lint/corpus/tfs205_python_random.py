# expect: TFS205
# tf: ok
# pattern: random.random() drawn once
import tensorflow as tf

import random

@tf.function
def noisy(x):
    return x + random.random()

noisy(tf.constant(1.0))
noisy(tf.constant(1.0))
