# expect: none
# tf: no-retrace
# pattern: the factory runs once, its result is reused
import tensorflow as tf

def make_step():
    @tf.function
    def step(v):
        return v * 2.0
    return step

step = make_step()
x = tf.constant(1.0)
for i in range(3):
    step(x)
