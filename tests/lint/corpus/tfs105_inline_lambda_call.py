# expect: TFS105
# tf: retrace
# pattern: tf.function(lambda ...)(x) per iteration
import tensorflow as tf

x = tf.constant(2.0)
for i in range(3):
    tf.function(lambda v: v * 2.0)(x)
