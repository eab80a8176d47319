# expect: TFS401
# tf: error:NotImplementedError
# pattern: return under a tensor condition in a tf.range loop
import tensorflow as tf

@tf.function
def first_big(n):
    for i in tf.range(n):
        if i > 2:
            return i
    return -1

first_big(tf.constant(5))
