# expect: none
# tf: no-retrace
# pattern: numpy scalars are typed like tensors (TensorSpec), not Literals
import numpy as np
import tensorflow as tf

@tf.function
def f(x, n):
    return x + tf.cast(n, tf.float32)

x = tf.constant(1.0)
for i in range(4):
    f(x, np.int32(i))
