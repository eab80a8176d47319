# expect: none
# tf: ok
# pattern: print inside tf.py_function's function runs at call time
import tensorflow as tf

def show(x):
    print("value", x.numpy())
    return x

@tf.function
def f(x):
    return tf.py_function(show, [x], tf.int32)

f(tf.constant(3))
