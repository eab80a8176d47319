import tensorflow as tf


def loop_options_for(n):
  s = 0
  for i in tf.range(n):
    tf.autograph.experimental.set_loop_options(maximum_iterations=10, parallel_iterations=1)
    s += i
  return s
