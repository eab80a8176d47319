import tensorflow as tf


def while_list(xs):
  out = 0
  while xs:
    out += xs.pop()
  return out
