import tensorflow as tf


def aug_composite(self, d, n):
  for i in tf.range(n):
    self.total += i
    d['count'] += 1
  return self.total, d
