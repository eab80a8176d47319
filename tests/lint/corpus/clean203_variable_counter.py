# expect: none
# tf: ok
# pattern: the counter is a tf.Variable
import tensorflow as tf

calls = tf.Variable(0)

@tf.function
def f(x):
    calls.assign_add(1)
    return x + 1

f(tf.constant(1))
f(tf.constant(2))
