# expect: none
# tf: ok
# pattern: timing the call from outside
import tensorflow as tf

import time

@tf.function
def f(x):
    return x * 2

start = time.time()
f(tf.constant(1))
elapsed = time.time() - start
