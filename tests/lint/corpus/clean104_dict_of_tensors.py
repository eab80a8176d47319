# expect: none
# tf: no-retrace
# pattern: a dict of tensors with the same keys
import tensorflow as tf

@tf.function
def f(d):
    return d["a"] * 2.0

x = tf.constant(1.0)
for i in range(3):
    f({"a": x})
