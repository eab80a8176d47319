# expect: TFS407
# tf: autograph-warning
# pattern: while/else statement not yet supported
import tensorflow as tf

@tf.function
def f(x):
    n = 0
    while n < 3:
        n += 1
    else:
        x = x + n
    return x

f(tf.constant(1))
