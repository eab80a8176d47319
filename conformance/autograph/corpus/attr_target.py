import tensorflow as tf


def attr_target(self, n):
  for self.i in range(n):
    self.total = self.total + self.i
  return self.total
