# expect: TFS103
# tf: retrace
# pattern: a list argument holding the loop variable
import tensorflow as tf

@tf.function
def total(x, weights):
    return x * weights[0] + weights[1]

x = tf.constant(1.0)
for i in range(3):
    total(x, [i, 1])
