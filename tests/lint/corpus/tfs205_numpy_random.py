# expect: TFS205
# tf: ok
# pattern: np.random inside tf.function
import tensorflow as tf

import numpy as np

@tf.function
def dropout_mask(x):
    keep = np.random.rand() > 0.5
    return x * float(keep)

dropout_mask(tf.constant(1.0))
