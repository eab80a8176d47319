# expect: none
# tf: ok
# pattern: a local with the same name as a global
import tensorflow as tf

calls = 0

@tf.function
def f(x):
    calls = 1
    return x + calls

f(tf.constant(1))
