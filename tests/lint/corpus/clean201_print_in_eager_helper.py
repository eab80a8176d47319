# expect: none
# tf: ok
# pattern: a helper that prints, called only from eager code
import tensorflow as tf


def report(value):
    print("value:", value)


@tf.function
def f(x):
    return x + 1


report(f(tf.constant(1)))
