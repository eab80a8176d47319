import tensorflow as tf


def for_undefined_state(n):
  for i in tf.range(n):
    s += i
  return s
