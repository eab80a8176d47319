import tensorflow as tf


def comparisons(a, b, c, d):
  p = a < b <= c < d
  q = a is not None
  r = b not in c
  s = not (a and b)
  return p, q, r, s
