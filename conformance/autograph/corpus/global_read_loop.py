import tensorflow as tf


def global_read_loop(n):
  s = 0
  for i in range(n):
    s = s + tf.constant(i)
  return s
