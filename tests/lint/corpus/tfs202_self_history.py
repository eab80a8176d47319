# expect: TFS202
# tf: ok
# pattern: appending to self.history in a traced method
import tensorflow as tf

class Tracker(tf.Module):
    def __init__(self):
        self.history = []

    @tf.function
    def __call__(self, x):
        self.history.append(x)
        return x + 1

Tracker()(tf.constant(1))
