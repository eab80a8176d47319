import tensorflow as tf


def numbered_suffix_01(x):
  if x > 0:
    x = x - 1
  return x
