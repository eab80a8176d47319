import tensorflow as tf


def loop_options_err(n):
  i = 0
  while i < n:
    i += 1
    tf.autograph.experimental.set_loop_options(maximum_iterations=10)
  return i
