import tensorflow as tf


def class_inside(x):
  class Acc(object):
    def __init__(self):
      self.v = 0

    def add(self, n):
      for i in range(n):
        self.v += i
      return self.v
  return Acc().add(x)
