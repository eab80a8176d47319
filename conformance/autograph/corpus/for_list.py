import tensorflow as tf


def for_list(x):
  for v in [1, 2, 3]:
    x = x + v
  return x
