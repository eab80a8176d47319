import tensorflow as tf


def try_except(x):
  try:
    y = x + 1
  except ValueError as e:
    y = 0
  finally:
    x = 1
  return y
