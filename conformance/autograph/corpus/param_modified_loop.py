import tensorflow as tf


def param_modified_loop(x, n):
  i = 0
  while i < n:
    x = x * 2
    i = i + 1
  return x, i
