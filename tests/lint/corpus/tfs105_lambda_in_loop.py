# expect: TFS105
# tf: retrace
# pattern: tf.function(lambda ...) in a loop
import tensorflow as tf

x = tf.constant(1.0)
for i in range(3):
    g = tf.function(lambda v: v + 1.0)
    g(x)
