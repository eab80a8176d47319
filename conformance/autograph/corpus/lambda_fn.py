import tensorflow as tf


def lambda_fn(x):
  f = lambda y: y + 1
  return f(x)
