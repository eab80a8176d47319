import tensorflow as tf


def del_stmt(x):
  y = x + 1
  del y
  return x
