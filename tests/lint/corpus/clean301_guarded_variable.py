# expect: none
# tf: ok
# pattern: guide: create once behind `if self.v is None`
import tensorflow as tf

class Scale(tf.Module):
    def __init__(self):
        self.w = None

    @tf.function
    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(2.0)
        return self.w * x

s = Scale()
s(tf.constant(1.0))
s(tf.constant(2.0))
