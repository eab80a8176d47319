import tensorflow as tf


def return_in_both_loops(n):
  for i in range(n):
    for j in range(n):
      if i * j > 10:
        return i, j
  return None
