import tensorflow as tf


def tuple_return_loop(n):
  a, b = 0, 1
  for _ in range(n):
    a, b = b, a + b
  return a, b
