import tensorflow as tf


def multiple_targets_if(x):
  a, b = 0, 0
  if x > 0:
    a, b = b, a
    c = a
  return a, b
