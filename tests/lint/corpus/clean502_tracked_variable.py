# expect: none
# tf: ok
# pattern: the variable is an attribute of the saved object
import tensorflow as tf

import tempfile

scale = tf.Variable(2.0)

class Model(tf.Module):
    def __init__(self):
        self.scale = scale

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def __call__(self, x):
        return x * self.scale

tf.saved_model.save(Model(), tempfile.mkdtemp())
