# expect: TFS302
# tf: ok
# pattern: a global threshold changed between calls in a loop
import tensorflow as tf

threshold = 0.5

@tf.function
def clip(x):
    return tf.minimum(x, threshold)

for t in [0.1, 0.2, 0.3]:
    clip(tf.constant(1.0))
    threshold = t
