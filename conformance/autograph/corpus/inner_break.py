import tensorflow as tf


def inner_break(n, m):
  s = 0
  for i in range(n):
    for j in range(m):
      if j > i:
        break
      s += j
  return s
