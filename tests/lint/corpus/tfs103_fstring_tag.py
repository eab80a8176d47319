# expect: TFS103
# tf: retrace
# pattern: an f-string name per iteration
import tensorflow as tf

@tf.function
def tagged(x, tag):
    return tf.identity(x, name=None) if tag else x

x = tf.constant(1.0)
for i in range(3):
    tagged(x, f"run{i}")
