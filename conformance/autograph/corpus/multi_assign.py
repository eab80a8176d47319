import tensorflow as tf


def multi_assign(x):
  a = b = x
  c, d = a, b
  a, *rest = [c, d, x]
  return a + b + c + d
