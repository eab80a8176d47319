import tensorflow as tf


def break_last(n):
  s = 0
  for i in tf.range(n):
    s += i
    if s > 10:
      break
  return s
