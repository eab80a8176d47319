# expect: TFS206
# tf: error:NotImplementedError
# pattern: np.sum on a symbolic tensor
import tensorflow as tf

import numpy as np

@tf.function
def f(x):
    return np.sum(x)

f(tf.constant([1.0, 2.0]))
