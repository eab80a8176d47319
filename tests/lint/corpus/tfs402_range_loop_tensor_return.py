# expect: TFS402
# tf: error:ValueError
# pattern: a tensor-dependent return in a Python range loop
import tensorflow as tf

@tf.function
def f(x):
    for i in range(3):
        if x > i:
            return x
    return -x

f(tf.constant(1))
