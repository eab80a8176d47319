import tensorflow as tf


def while_simple(x):
  while x < 10:
    x = x * 2
  return x
