import tensorflow as tf


def if_no_else(x):
  if x < 0:
    x = -x
  return x
