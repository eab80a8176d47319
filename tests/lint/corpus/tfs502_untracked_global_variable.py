# expect: TFS502
# tf: error:AssertionError
# pattern: saving a function that captures an untracked variable
import tensorflow as tf

import tempfile

scale = tf.Variable(2.0)

class Model(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def __call__(self, x):
        return x * scale

tf.saved_model.save(Model(), tempfile.mkdtemp())
