import tensorflow as tf


def print_kwargs(x):
  for i in range(3):
    print(i, x, end="", sep=", ")
  print()
