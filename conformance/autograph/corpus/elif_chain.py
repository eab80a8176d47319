import tensorflow as tf


def elif_chain(x):
  if x > 0:
    y = 1
  elif x < 0:
    y = -1
  else:
    y = 0
  return y
