# expect: TFS102
# tf: retrace
# pattern: a factory returning tf.function(...)
import tensorflow as tf

def body(v):
    return v + 2.0

def compile_body():
    return tf.function(body)

for i in range(3):
    compile_body()(tf.constant(1.0))
