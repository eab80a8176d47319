import tensorflow as tf


def global_read_only_loop(n):
  s = 0
  for i in range(n):
    s = s + LIMIT
  return s
