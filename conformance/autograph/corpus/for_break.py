import tensorflow as tf


def for_break(n):
  s = 0
  for i in tf.range(n):
    if s > 10:
      break
    s += i
  return s
