import tensorflow as tf


def if_in_for(n):
  s = 0
  for i in tf.range(n):
    if i % 2 == 0:
      s += i
    else:
      s -= 1
  return s
