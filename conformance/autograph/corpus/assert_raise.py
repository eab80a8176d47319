import tensorflow as tf


def assert_raise(x):
  assert x is not None, "x is None"
  if x < 0:
    raise ValueError("negative: %s" % x)
  return x
