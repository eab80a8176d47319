import tensorflow as tf


def if_exp(x):
  y = x if x > 0 else -x
  return y
