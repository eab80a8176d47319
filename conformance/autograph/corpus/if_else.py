import tensorflow as tf


def if_else(x):
  if x > 0:
    y = x
  else:
    y = -x
  return y
