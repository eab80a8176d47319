import tensorflow as tf


def aug_subscript_loop(d, n):
  for i in range(n):
    d[i] += 1
  return d
