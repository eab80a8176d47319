import tensorflow as tf


def nested_function(x):
  def inner(y):
    return y * 2
  return inner(x) + 1
