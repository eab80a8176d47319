import tensorflow as tf


def empty_collections(n):
  a = []
  b = {}
  while n > 0:
    a.append(n)
    b[n] = a[-1]
    n -= 1
  return a, b
