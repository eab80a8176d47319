# expect: TFS407
# tf: autograph-warning
# pattern: for/else statement not yet supported
import tensorflow as tf

@tf.function
def f(x):
    for i in range(3):
        x = x * 2
    else:
        x = x + 1
    return x

f(tf.constant(1))
