import tensorflow as tf


def input_only(x, n):
  y = 0
  if n > 0:
    y = x + 1
    x = y * 2
  return y
