import tensorflow as tf


def for_tf_range(n):
  s = 0
  for i in tf.range(n):
    s += i
  return s
