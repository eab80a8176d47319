import tensorflow as tf


def for_py_range(n):
  s = 0
  for i in range(n):
    s = s + i * 2
  return s
