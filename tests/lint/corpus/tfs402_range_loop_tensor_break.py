# expect: TFS402
# tf: error:NotImplementedError
# pattern: a tensor break in a Python range loop
import tensorflow as tf

@tf.function
def f(x):
    for i in range(3):
        if x > i:
            break
        x += 1
    return x

f(tf.constant(1))
