import tensorflow as tf


def branch_side_effect(x):
  if x > 0:
    t = x * 2
    tf.print(t)
