import tensorflow as tf


def nested_loops(n, m):
  s = 0
  for i in tf.range(n):
    for j in tf.range(m):
      s += i * j
  return s
