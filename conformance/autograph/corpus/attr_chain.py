import tensorflow as tf


def attr_chain(self, n):
  while n > 0:
    self.a.b = self.a.b + n
    n -= 1
  return self.a.b
