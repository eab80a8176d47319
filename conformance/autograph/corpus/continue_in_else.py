import tensorflow as tf


def continue_in_else(n):
  s = 0
  for i in range(n):
    if i > 3:
      s += 1
    else:
      continue
    s += 2
  return s
