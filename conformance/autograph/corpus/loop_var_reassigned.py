import tensorflow as tf


def loop_var_reassigned(n):
  s = 0
  for i in range(n):
    i = i * 2
    s += i
  return s
