import tensorflow as tf


def return_nested_if(x, y):
  while x < 10:
    if y > 0:
      if x > 5:
        return x
    x = x + 1
  return y
