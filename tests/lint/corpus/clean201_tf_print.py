# expect: none
# tf: ok
# pattern: tf.print runs on every call
import tensorflow as tf

@tf.function
def f(x):
    tf.print("Executed with", x)
    return x + 1

f(tf.constant(1))
