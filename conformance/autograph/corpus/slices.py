import tensorflow as tf


def slices(x):
  a = x[1:2, ::3]
  b = x[...]
  c = x[:, None]
  d = x[-1]
  e = x[1:]
  return a, b, c, d, e
