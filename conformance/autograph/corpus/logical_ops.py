import tensorflow as tf


def logical_ops(a, b, c):
  p = a and b
  q = a or b or c
  r = not a
  s = 0 < a < 10
  return p, q, r, s
