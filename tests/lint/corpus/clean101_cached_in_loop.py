# expect: none
# tf: no-retrace
# pattern: a cache guarded by `if key not in cache`
import tensorflow as tf

def f(v):
    return v - 1.0

cache = {}
x = tf.constant(1.0)
for key in ["a", "a", "a"]:
    if key not in cache:
        cache[key] = tf.function(f)
    cache[key](x)
