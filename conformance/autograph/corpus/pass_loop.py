import tensorflow as tf


def pass_loop(n):
  for i in range(n):
    pass
  while n > 0:
    n -= 1
  return n
