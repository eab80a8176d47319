import tensorflow as tf


def two_loops(n):
  s = 0
  for i in tf.range(n):
    s += i
  for j in tf.range(n):
    if s > 100:
      break
    s += j
  return s
