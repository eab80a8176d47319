# expect: TFS103
# tf: retrace
# pattern: a Python loop inside a tf.function passing its index to another tf.function
import tensorflow as tf


@tf.function
def inner(x, k):
    return x * k


@tf.function
def outer(x):
    for k in range(3):
        x = inner(x, k)
    return x


outer(tf.constant(1.0))
