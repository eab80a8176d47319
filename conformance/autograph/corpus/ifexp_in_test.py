import tensorflow as tf


def ifexp_in_test(x, y):
  if (x if y else -x) > 0:
    z = 1
  else:
    z = 2
  return z
