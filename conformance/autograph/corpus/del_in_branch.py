import tensorflow as tf


def del_in_branch(x):
  y = x
  if x > 0:
    del y
    y = 1
  return y
