# expect: none
# tf: no-retrace
# pattern: iterating tf.range eagerly gives tensors
import tensorflow as tf

@tf.function
def f(t):
    return t * 2

for t in tf.range(4):
    f(t)
