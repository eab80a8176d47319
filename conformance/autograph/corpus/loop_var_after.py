import tensorflow as tf


def loop_var_after(n):
  for i in tf.range(n):
    pass
  return i
