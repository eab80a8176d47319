import tensorflow as tf


def while_continue(n):
  i = 0
  s = 0
  while i < n:
    i += 1
    if i % 3 == 0:
      continue
    s += i
  return s
