import tensorflow as tf


def super_call(self, x):
  y = super().forward(x)
  if y is None:
    y = self.print(x)
  return y
