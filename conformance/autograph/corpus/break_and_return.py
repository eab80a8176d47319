import tensorflow as tf


def break_and_return(n):
  s = 0
  for i in tf.range(n):
    if s > 50:
      return s
    if i > 10:
      break
    s = s + i
  return -s
