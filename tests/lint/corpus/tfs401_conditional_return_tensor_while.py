# expect: TFS401
# tf: error:NotImplementedError
# pattern: return inside a tensor while loop
import tensorflow as tf

@tf.function
def f(x):
    while x < 10:
        x += 1
        if x > 5:
            return x
    return x

f(tf.constant(0))
