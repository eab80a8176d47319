import tensorflow as tf


def match_value_pattern(x):
  match 0:
    case tf.float32:
      x = x + 1
  return x
