import tensorflow as tf


def keep(f):
  return f


@keep
def decorated(x):
  """Adds one."""
  if x > 0:
    x = x + 1
  return x
