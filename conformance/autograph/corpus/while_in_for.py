import tensorflow as tf


def while_in_for(n):
  s = 0
  for i in range(n):
    j = 0
    while j < i:
      s += j
      j += 1
  return s
