# expect: none
# tf: ok
# pattern: a tensor break in a tf.range loop
import tensorflow as tf

@tf.function
def f(x):
    for i in tf.range(3):
        if x > i:
            break
        x += 1
    return x

f(tf.constant(1))
