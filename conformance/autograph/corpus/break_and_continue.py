import tensorflow as tf


def break_and_continue(n):
  s = 0
  for i in tf.range(n):
    if i % 2 == 0:
      continue
    if s > 20:
      break
    s += i
  return s
