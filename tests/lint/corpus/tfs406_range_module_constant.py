# expect: TFS406
# tf: graph-ops>=500
# pattern: an unrolled loop over a module constant
import tensorflow as tf

STEPS = 500

@tf.function
def decay(x):
    for _ in range(STEPS):
        x = x * 0.99
    return x

decay(tf.constant(1.0))
