# expect: TFS206
# tf: error:NotImplementedError
# pattern: np.mean of a TF op's result
import tensorflow as tf

import numpy as np

@tf.function
def f(x):
    y = tf.square(x)
    return np.mean(y)

f(tf.constant([1.0, 2.0]))
