import tensorflow as tf


def nested_while_break(n):
  i = 0
  while i < n:
    j = 0
    while True:
      j += 1
      if j > i:
        break
    i += 1
  return i
