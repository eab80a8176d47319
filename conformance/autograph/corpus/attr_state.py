import tensorflow as tf


def attr_state(self, n):
  for i in tf.range(n):
    self.x = self.x + i
  return self.x
