# expect: TFS402
# tf: error:NotImplementedError
# pattern: while True with a tensor break
import tensorflow as tf

@tf.function
def f(x):
    while True:
        x += 1
        if x > 5:
            break
    return x

f(tf.constant(0))
