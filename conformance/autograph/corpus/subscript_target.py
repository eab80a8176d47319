import tensorflow as tf


def subscript_target(buf, n):
  for buf[0] in range(n):
    tf.print(buf[0])
  return buf
