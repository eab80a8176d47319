import tensorflow as tf


def nested_docstring(x):
  def helper(v):
    """Helper docs."""
    while v > 100:
      v = v // 2
    return v
  return helper(x)
