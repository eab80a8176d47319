# expect: TFS102
# tf: retrace
# pattern: a factory that builds a tf.function, called per step
import tensorflow as tf

def make_step():
    @tf.function
    def step(v):
        return v * 2.0
    return step

x = tf.constant(1.0)
for i in range(3):
    make_step()(x)
