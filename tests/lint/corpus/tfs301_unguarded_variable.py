# expect: TFS301
# tf: error:ValueError
# pattern: guide: Creating tf.Variables (singleton rule)
import tensorflow as tf

@tf.function
def f(x):
    v = tf.Variable(1.0)
    return v + x

f(tf.constant(1.0))
