import tensorflow as tf


def only_docstring(x):
  """Nothing here."""
  pass
