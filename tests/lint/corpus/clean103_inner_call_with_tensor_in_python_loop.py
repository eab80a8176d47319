# expect: none
# tf: no-retrace
# pattern: a Python loop inside a tf.function calling another tf.function with tensors only
import tensorflow as tf


@tf.function
def inner(x):
    return x * 2.0


@tf.function
def outer(x):
    for i in range(3):
        x = inner(x)
    return x


outer(tf.constant(1.0))
outer(tf.constant(2.0))
