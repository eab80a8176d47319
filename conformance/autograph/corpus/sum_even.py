import tensorflow as tf


def sum_even(n):
  s = 0
  for i in tf.range(n):
    if i % 2 == 0:
      s += i
  return s
