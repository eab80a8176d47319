# expect: none
# tf: ok
# pattern: a list local to the traced body
import tensorflow as tf

@tf.function
def f(x):
    parts = []
    for i in range(3):
        parts.append(x * i)
    return tf.add_n(parts)

f(tf.constant(1))
