# expect: none
# tf: no-retrace
# pattern: the creating function is called once
import tensorflow as tf

def run(v):
    fn = tf.function(lambda y: y * 3.0)
    return fn(v)

run(tf.constant(1.0))
