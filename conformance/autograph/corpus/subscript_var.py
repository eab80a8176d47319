import tensorflow as tf


def subscript_var(d, keys):
  for k in keys:
    d[k] = d[k] * 2
  return d
