import tensorflow as tf


def if_pass(x):
  if x > 0:
    pass
  else:
    x = 0
  return x
