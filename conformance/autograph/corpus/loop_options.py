import tensorflow as tf


def loop_options(n):
  s = tf.constant([0])
  i = 0
  while i < n:
    tf.autograph.experimental.set_loop_options(shape_invariants=[(s, tf.TensorShape([None]))])
    s = tf.concat([s, [i]], 0)
    i += 1
  return s
