# expect: none
# tf: no-retrace
# pattern: a plain Python def in the loop, the tf.function outside
import tensorflow as tf

@tf.function
def apply(v):
    return v * 4.0

x = tf.constant(1.0)
for i in range(3):
    def helper(v):
        return v + 1.0
    apply(helper(x))
