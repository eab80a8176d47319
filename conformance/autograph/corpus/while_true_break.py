import tensorflow as tf


def while_true_break(x):
  while True:
    x = x + 1
    if x > 5:
      break
  return x
