import tensorflow as tf


def print_call(x):
  print(x)
  print("value", x, sep="=")
  return x
