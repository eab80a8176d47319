# expect: TFS102
# tf: retrace
# pattern: tf.function created inside a function called in a loop
import tensorflow as tf

def double(v):
    return v * 2.0

def run(v):
    fn = tf.function(double)
    return fn(v)

for i in range(3):
    run(tf.constant(1.0))
