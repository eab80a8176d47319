import tensorflow as tf


def while_else_err(n):
  while n > 0:
    n -= 1
  else:
    n = 5
  return n
