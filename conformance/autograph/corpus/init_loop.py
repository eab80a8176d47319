import tensorflow as tf


def init_loop(n):
  class C:
    def __init__(self):
      self.v = 0
      for i in range(n):
        self.v = self.v + i
  return C().v
