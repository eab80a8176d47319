# expect: TFS103
# tf: retrace
# pattern: a Keras-style model.train_step(x, step) with the step counter as a Python int
import tensorflow as tf


class Model(tf.Module):
    @tf.function
    def train_step(self, x, step):
        return x * 2.0 + step


model = Model()
x = tf.constant(1.0)
for step in range(3):
    model.train_step(x, step)
