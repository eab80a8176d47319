# expect: TFS101
# tf: retrace
# pattern: guide: Better performance with tf.function (creating tf.function in a loop)
import tensorflow as tf

x = tf.constant(1.0)
for i in range(3):
    @tf.function
    def step(v):
        return v * 2.0
    step(x)
