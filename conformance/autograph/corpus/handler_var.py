import tensorflow as tf


def handler_var(x):
  try:
    y = 1 / x
  except ZeroDivisionError:
    y = 0
  if y > 0:
    y = y + 1
  return y
