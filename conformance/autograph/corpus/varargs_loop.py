import tensorflow as tf


def varargs_loop(*args, **kwargs):
  total = 0
  for a in args:
    total = total + a
  for k in kwargs:
    total = total + kwargs[k]
  return total
