# expect: none
# tf: no-retrace
# pattern: the method is wrapped in __init__
import tensorflow as tf

class Trainer:
    def __init__(self):
        self.compiled = tf.function(self.step)

    def step(self, v):
        return v - 1.0

t = Trainer()
for i in range(3):
    t.compiled(tf.constant(5.0))
