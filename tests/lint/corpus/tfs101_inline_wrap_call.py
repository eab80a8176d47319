# expect: TFS101
# tf: retrace
# pattern: tf.function(f)(x) in a loop
import tensorflow as tf

def square(v):
    return v * v

for i in range(3):
    tf.function(square)(tf.constant(3.0))
