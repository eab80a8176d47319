import tensorflow as tf


def for_over_tensor(t):
  acc = tf.zeros([3])
  for row in t:
    acc = acc + row
  return acc
