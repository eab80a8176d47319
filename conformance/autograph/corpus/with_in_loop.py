import tensorflow as tf


def with_in_loop(n):
  i = 0
  while i < n:
    with tf.name_scope('step'):
      i = i + 1
      if i > 3:
        break
  return i
