import tensorflow as tf


def while_break(x):
  while x < 100:
    if x % 7 == 0:
      break
    x = x + 3
  return x
