import tensorflow as tf


def if_one_branch(x):
  if x > 0:
    z = x * 2
  return z
