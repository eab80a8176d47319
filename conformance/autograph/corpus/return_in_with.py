import tensorflow as tf


def return_in_with(x):
  with tf.name_scope('r'):
    if x > 0:
      return x
    x = x * 2
  return x
