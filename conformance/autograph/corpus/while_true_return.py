import tensorflow as tf


def while_true_return(x):
  while True:
    x = x + 1
    if x > 10:
      return x
  return -1
