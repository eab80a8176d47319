import tensorflow as tf


def subscript_state(d, n):
  i = 0
  while i < n:
    d['k'] = d['k'] + 1
    i += 1
  return d
