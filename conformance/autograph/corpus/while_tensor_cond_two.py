import tensorflow as tf


def while_tensor_cond_two(x, y):
  while x > 0 and y > 0:
    x = x - 1
    y = y - 2
  return x + y
