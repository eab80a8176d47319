# expect: TFS202
# tf: ok
# pattern: storing tensors in a global dict
import tensorflow as tf

cache = {}

@tf.function
def f(x):
    cache["last"] = x
    return x * 3

f(tf.constant(1))
