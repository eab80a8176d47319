import tensorflow as tf


def return_in_for(n):
  for i in tf.range(n):
    if i > 3:
      return i
  return -1
