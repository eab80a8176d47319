# expect: TFS103
# tf: retrace
# pattern: enumerate's index passed with each tensor
import tensorflow as tf

@tf.function
def weigh(t, k):
    return t * k

tensors = [tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)]
for k, t in enumerate(tensors):
    weigh(t, k)
