# expect: none
# tf: ok
# pattern: guide: variable_add reads the variable at run time
import tensorflow as tf

scale = tf.Variable(1.0)

@tf.function
def f(x):
    return x * scale

f(tf.constant(1.0))
scale.assign(3.0)
f(tf.constant(1.0))
