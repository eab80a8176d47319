import tensorflow as tf


def global_nested(x):
  def inner():
    global COUNT
    COUNT = x
    while COUNT > 0:
      COUNT = COUNT - 1
  inner()
  return x
