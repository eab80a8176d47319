# expect: TFS103
# tf: retrace
# pattern: a step counter passed as a Python int
import tensorflow as tf

@tf.function
def log_step(x, step):
    return x + step

x = tf.constant(0.0)
step = 0
while step < 3:
    log_step(x, step)
    step += 1
