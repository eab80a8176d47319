# expect: TFS201
# tf: ok
# pattern: print in a helper the tf.function calls
import tensorflow as tf

def log_shape(x):
    print("shape", x.shape)
    return x

@tf.function
def f(x):
    return log_shape(x) * 2

f(tf.constant([1, 2]))
