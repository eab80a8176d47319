# expect: TFS101
# tf: retrace
# pattern: frequent-retracing warning cause (1)
import tensorflow as tf

x = tf.constant(2.0)
n = 0
while n < 3:
    @tf.function(reduce_retracing=True)
    def scale(v):
        return v * 3.0
    scale(x)
    n += 1
