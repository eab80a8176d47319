import tensorflow as tf


def aug_ops(x):
  x += 1
  x -= 2
  x *= 3
  x //= 4
  x **= 2
  x <<= 1
  return x
