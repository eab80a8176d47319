import tensorflow as tf


def unpacking(xs, d):
  a = [*xs, 1]
  b = {**d, "k": 1}
  c = set()
  e = {1, 2}
  f = ()
  g = (1,)
  return a, b, c, e, f, g
