import tensorflow as tf


def return_else_only(x):
  if x > 0:
    y = x
  else:
    return 0
  y = y * 2
  return y
