import tensorflow as tf


def local_to_body(n):
  s = 0
  for i in tf.range(n):
    t = i * 2
    s += t
  return s
