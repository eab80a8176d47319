# expect: TFS206
# tf: error:AttributeError
# pattern: .numpy() inside tf.function
import tensorflow as tf

@tf.function
def f(x):
    return x.numpy() * 2

f(tf.constant([1.0, 2.0]))
