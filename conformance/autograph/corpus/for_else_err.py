import tensorflow as tf


def for_else_err(n):
  for i in range(n):
    pass
  else:
    return 1
  return 0
