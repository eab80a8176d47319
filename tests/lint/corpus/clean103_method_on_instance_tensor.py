# expect: none
# tf: no-retrace
# pattern: the same method called with the step as a tensor
import tensorflow as tf


class Model(tf.Module):
    @tf.function
    def train_step(self, x, step):
        return x * 2.0 + tf.cast(step, tf.float32)


model = Model()
x = tf.constant(1.0)
for step in range(3):
    model.train_step(x, tf.constant(step))
