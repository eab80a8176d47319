import tensorflow as tf


def with_block(x):
  with tf.name_scope('s'):
    y = x * 2
  return y
