import tensorflow as tf


def if_modifies_param_unused(x, y):
  if x > 0:
    y = x
    x = 0
  return x
