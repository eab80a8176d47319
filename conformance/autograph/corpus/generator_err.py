import tensorflow as tf


def generator_err(n):
  for i in range(n):
    yield i
