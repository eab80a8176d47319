# expect: TFS204
# tf: ok
# pattern: time.time() baked in as a constant
import tensorflow as tf

import time

@tf.function
def stamp(x):
    return x + time.time()

stamp(tf.constant(1.0, tf.float64))
