# expect: none
# tf: ok
# pattern: a dict built inside the function
import tensorflow as tf

@tf.function
def f(x):
    out = {}
    out["double"] = x * 2
    return out

f(tf.constant(1))
