# expect: TFS105
# tf: retrace
# pattern: a method that wraps self.step inside its loop
import tensorflow as tf

class Trainer:
    def step(self, v):
        return v - 1.0

    def fit(self, v, n):
        k = 0
        while k < n:
            tf.function(self.step)(v)
            k += 1

Trainer().fit(tf.constant(5.0), 3)
