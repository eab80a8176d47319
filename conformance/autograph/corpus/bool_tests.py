import tensorflow as tf


def bool_tests(x, y):
  if not x:
    x = 1
  if x and y:
    y = 2
  if x or not y:
    x = 3
  return x, y
