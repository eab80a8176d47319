import tensorflow as tf


def while_tensor(x):
  while tf.reduce_sum(x) > 0:
    x = x - 1
  return x
