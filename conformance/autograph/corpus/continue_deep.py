import tensorflow as tf


def continue_deep(n):
  i = 0
  s = 0
  while i < n:
    i += 1
    if i > 2:
      if i % 2 == 0:
        continue
      s += 10
    s += i
  return s
