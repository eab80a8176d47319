# expect: TFS301
# tf: error:ValueError
# pattern: a tf.Module creating its variable in __call__
import tensorflow as tf

class Scale(tf.Module):
    @tf.function
    def __call__(self, x):
        self.w = tf.Variable(2.0)
        return self.w * x

Scale()(tf.constant(1.0))
