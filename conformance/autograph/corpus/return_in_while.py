import tensorflow as tf


def return_in_while(x):
  while x < 100:
    if x > 50:
      return x
    x = x * 2
  return 0
