import tensorflow as tf


"""Module docstring."""


def docstring(x):
  """Doubles x."""
  return x * 2
