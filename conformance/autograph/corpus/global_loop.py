import tensorflow as tf

TOTAL = 0


def global_loop(n):
  global TOTAL
  for i in tf.range(n):
    TOTAL = TOTAL + i
  return TOTAL
