# expect: TFS103
# tf: retrace
# pattern: a value computed from the loop variable
import tensorflow as tf

@tf.function
def scale(x, factor):
    return x * factor

x = tf.constant(1.0)
for i in range(3):
    factor = i * 0.5
    scale(x, factor)
