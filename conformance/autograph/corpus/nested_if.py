import tensorflow as tf


def nested_if(x, y):
  if x > 0:
    if y > 0:
      z = x + y
    else:
      z = x - y
  else:
    z = 0
  return z
