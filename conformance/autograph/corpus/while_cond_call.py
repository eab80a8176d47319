import tensorflow as tf


def while_cond_call(x, y):
  while tf.less(x, y) and x > 0:
    x = tf.add(x, 1)
  return x
