# expect: none
# tf: no-retrace
# pattern: the guide's fix: define once, call in the loop
import tensorflow as tf

@tf.function
def step(v):
    return v * 2.0

x = tf.constant(1.0)
for i in range(3):
    step(x)
