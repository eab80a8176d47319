# expect: TFS104
# tf: retrace
# pattern: a function defined in the loop and passed
import tensorflow as tf

@tf.function
def apply(x, act):
    return act(x)

x = tf.constant(1.0)
for i in range(3):
    def act(v):
        return v * 2.0
    apply(x, act)
